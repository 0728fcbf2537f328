#include "engine/storage/sort_permutation.h"

#include <tbb/parallel_sort.h>

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string_view>
#include <type_traits>

#include "engine/columns/column.h"
#include "engine/storage/value_order.h"

namespace granary
{
namespace
{

/// Sorting in parallel pays off only above this many rows.
constexpr size_t kParallelSortRows = 1 << 16;

/// Keys of up to this many 64-bit words are sorted as packed records.
constexpr size_t kMaxPackedWords = 4;

/// A string key column with at most this many distinct values among a part's rows (service
/// and operation names, LowCardinality columns) is sorted by the ranks of its values.
constexpr size_t kMaxRankedValues = 1 << 16;

/// An unsigned code of T's width whose unsigned order is valueLess's order (NaN highest, -0
/// equal to +0).
template <typename T>
auto orderCode(T value)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        constexpr Bits kSign = Bits{1} << (8 * sizeof(T) - 1);
        if (std::isnan(value))
        {
            return static_cast<Bits>(~Bits{0});
        }
        const Bits bits = std::bit_cast<Bits>(value == 0 ? T{0} : value);
        return static_cast<Bits>((bits & kSign) != 0 ? ~bits : bits | kSign);
    }
    else
    {
        using Bits = std::make_unsigned_t<T>;
        constexpr Bits kSign = std::is_signed_v<T> ? Bits{1} << (8 * sizeof(T) - 1) : Bits{0};
        return static_cast<Bits>(static_cast<Bits>(value) ^ kSign);
    }
}

template <size_t Words>
struct PackedRow
{
    uint64_t words[Words];
    SourceRow source;

    bool operator<(const PackedRow& other) const
    {
        for (size_t word = 0; word < Words; ++word)
        {
            if (words[word] != other.words[word])
            {
                return words[word] < other.words[word];
            }
        }
        return source.piece != other.source.piece ? source.piece < other.source.piece
                                                  : source.row < other.source.row;
    }
};

template <typename Item, typename Less>
std::vector<Item> sortedOrEmpty(std::vector<Item> items, Less less, bool parallel)
{
    if (std::is_sorted(items.begin(), items.end(), less))
    {
        return {};
    }
#if GRANARY_TSAN_EXECUTOR
    // ThreadSanitizer cannot see oneTBB's own synchronization (Debian's build is not
    // instrumented), so its builds sort on one thread, as Executor runs plain threads there.
    parallel = false;
#endif
    if (parallel && items.size() >= kParallelSortRows)
    {
        tbb::parallel_sort(items.begin(), items.end(), less);
    }
    else
    {
        std::sort(items.begin(), items.end(), less);
    }
    return items;
}

size_t totalRows(const std::vector<std::vector<ColumnView>>& key_pieces)
{
    size_t rows = 0;
    for (const std::vector<ColumnView>& piece : key_pieces)
    {
        rows += piece.empty() ? 0 : piece.front().rows;
    }
    return rows;
}

/// Fixed-width keys, their codes concatenated most significant first into Words words: one
/// record compare per pair instead of one call per key column.
template <size_t Words>
std::vector<SourceRow> sortPacked(const std::vector<std::vector<ColumnView>>& key_pieces,
                                  bool parallel)
{
    std::vector<PackedRow<Words>> rows(totalRows(key_pieces), PackedRow<Words>{});
    size_t first = 0;
    for (size_t piece = 0; piece < key_pieces.size(); ++piece)
    {
        const size_t count = key_pieces[piece].front().rows;
        size_t bit = 0;
        for (const ColumnView& key : key_pieces[piece])
        {
            dispatchFixedType(key.type,
                              [&]<typename T>(TypeTag<T>)
                              {
                                  constexpr size_t kBits = 8 * sizeof(T);
                                  const size_t word = bit / 64;
                                  const size_t free_bits = 64 - bit % 64;
                                  const T* values = static_cast<const T*>(key.data);
                                  for (size_t row = 0; row < count; ++row)
                                  {
                                      const uint64_t code = orderCode(values[row]);
                                      uint64_t* words = rows[first + row].words;
                                      if (kBits <= free_bits)
                                      {
                                          words[word] |= code << (free_bits - kBits);
                                      }
                                      else
                                      {
                                          words[word] |= code >> (kBits - free_bits);
                                          words[word + 1] |= code << (64 - (kBits - free_bits));
                                      }
                                  }
                                  bit += kBits;
                              });
        }
        for (size_t row = 0; row < count; ++row)
        {
            rows[first + row].source = {static_cast<uint32_t>(piece), static_cast<uint32_t>(row)};
        }
        first += count;
    }
    rows = sortedOrEmpty(std::move(rows), std::less<>(), parallel);
    std::vector<SourceRow> order;
    order.reserve(rows.size());
    for (const PackedRow<Words>& row : rows)
    {
        order.push_back(row.source);
    }
    return order;
}

int compareValues(const ColumnView& left, size_t left_row, const ColumnView& right,
                  size_t right_row)
{
    return dispatchType(left.type,
                        [&]<typename T>(TypeTag<T>)
                        {
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                const int order =
                                    left.stringAt(left_row).compare(right.stringAt(right_row));
                                return order < 0 ? -1 : (order > 0 ? 1 : 0);
                            }
                            else
                            {
                                const T a = left.valueAt<T>(left_row);
                                const T b = right.valueAt<T>(right_row);
                                return valueLess(a, b) ? -1 : (valueLess(b, a) ? 1 : 0);
                            }
                        });
}

/// Any keys (strings, or wider than the packed records): compares column by column.
std::vector<SourceRow> sortByColumns(const std::vector<std::vector<ColumnView>>& key_pieces,
                                     bool parallel)
{
    std::vector<SourceRow> rows;
    rows.reserve(totalRows(key_pieces));
    for (size_t piece = 0; piece < key_pieces.size(); ++piece)
    {
        for (size_t row = 0; row < key_pieces[piece].front().rows; ++row)
        {
            rows.push_back({static_cast<uint32_t>(piece), static_cast<uint32_t>(row)});
        }
    }
    auto less = [&key_pieces](SourceRow left, SourceRow right)
    {
        const std::vector<ColumnView>& left_keys = key_pieces[left.piece];
        const std::vector<ColumnView>& right_keys = key_pieces[right.piece];
        for (size_t key = 0; key < left_keys.size(); ++key)
        {
            if (const int order =
                    compareValues(left_keys[key], left.row, right_keys[key], right.row);
                order != 0)
            {
                return order < 0;
            }
        }
        return left.piece != right.piece ? left.piece < right.piece : left.row < right.row;
    };
    return sortedOrEmpty(std::move(rows), less, parallel);
}

/// Key column `key` of every piece as UInt32 ranks of its distinct strings, ranked in string
/// order, so that ranks sort as the strings do and the key packs into records; nullopt when
/// the column has more than kMaxRankedValues distinct values (hashing stops there).
std::optional<std::vector<Column>> rankStrings(
    const std::vector<std::vector<ColumnView>>& key_pieces, size_t key)
{
    absl::flat_hash_map<std::string_view, uint32_t> ids;
    std::vector<Column> ranks;
    for (const std::vector<ColumnView>& piece : key_pieces)
    {
        const ColumnView& strings = piece[key];
        ranks.emplace_back(TypeId::UInt32);
        ranks.back().resizeFixedUninitialized(strings.rows);
        uint32_t* out = ranks.back().mutableData<uint32_t>();
        for (size_t row = 0; row < strings.rows; ++row)
        {
            const auto [entry, added] =
                ids.try_emplace(strings.stringAt(row), static_cast<uint32_t>(ids.size()));
            if (added && ids.size() > kMaxRankedValues)
            {
                return std::nullopt;
            }
            out[row] = entry->second;
        }
    }
    std::vector<std::pair<std::string_view, uint32_t>> values(ids.begin(), ids.end());
    std::sort(values.begin(), values.end());
    std::vector<uint32_t> rank_of_id(values.size());
    for (size_t rank = 0; rank < values.size(); ++rank)
    {
        rank_of_id[values[rank].second] = static_cast<uint32_t>(rank);
    }
    for (Column& column : ranks)
    {
        uint32_t* values_of_rows = column.mutableData<uint32_t>();
        for (size_t row = 0; row < column.size(); ++row)
        {
            values_of_rows[row] = rank_of_id[values_of_rows[row]];
        }
    }
    return ranks;
}

std::vector<SourceRow> sortKeys(const std::vector<std::vector<ColumnView>>& key_pieces,
                                bool parallel)
{
    size_t key_bits = 0;
    for (const ColumnView& key : key_pieces.front())
    {
        key_bits += isString(key.type) ? 64 * kMaxPackedWords + 1 : 8 * fixedWidth(key.type);
    }
    switch ((key_bits + 63) / 64)
    {
        case 1:
            return sortPacked<1>(key_pieces, parallel);
        case 2:
            return sortPacked<2>(key_pieces, parallel);
        case 3:
            return sortPacked<3>(key_pieces, parallel);
        case 4:
            return sortPacked<4>(key_pieces, parallel);
        default:
            return sortByColumns(key_pieces, parallel);
    }
}

}  // namespace

bool inKeyOrder(const std::vector<std::vector<ColumnView>>& key_pieces)
{
    const ColumnView* previous_keys = nullptr;
    size_t previous_row = 0;
    for (const std::vector<ColumnView>& keys : key_pieces)
    {
        if (keys.empty())
        {
            return true;  // No sort key: any order is the order.
        }
        for (size_t row = 0; row < keys.front().rows; ++row)
        {
            if (previous_keys != nullptr)
            {
                for (size_t key = 0; key < keys.size(); ++key)
                {
                    const int order =
                        compareValues(previous_keys[key], previous_row, keys[key], row);
                    if (order > 0)
                    {
                        return false;
                    }
                    if (order < 0)
                    {
                        break;
                    }
                }
            }
            previous_keys = keys.data();
            previous_row = row;
        }
    }
    return true;
}

std::vector<SourceRow> sortRows(const std::vector<std::vector<ColumnView>>& key_pieces,
                                bool parallel)
{
    // Checking the order first costs less than building the records only to find the rows in
    // order (gen-hits' parts arrive sorted).
    if (key_pieces.empty() || key_pieces.front().empty() || inKeyOrder(key_pieces))
    {
        return {};
    }
    // Low-cardinality string keys become their ranks (NULL-free views only: a rank has no
    // NULL), so that the whole key may pack into records.
    std::vector<std::vector<ColumnView>> ranked_pieces = key_pieces;
    std::vector<std::vector<Column>> rank_columns;
    for (size_t key = 0; key < key_pieces.front().size(); ++key)
    {
        const bool nullable = std::any_of(key_pieces.begin(), key_pieces.end(),
                                          [&](const auto& piece) { return piece[key].hasValidity(); });
        if (!isString(key_pieces.front()[key].type) || nullable)
        {
            continue;
        }
        std::optional<std::vector<Column>> ranks = rankStrings(key_pieces, key);
        if (!ranks)
        {
            continue;
        }
        rank_columns.push_back(std::move(*ranks));
        for (size_t piece = 0; piece < ranked_pieces.size(); ++piece)
        {
            ranked_pieces[piece][key] = rank_columns.back()[piece].view();
        }
    }
    return sortKeys(ranked_pieces, parallel);
}

}  // namespace granary
