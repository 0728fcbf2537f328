#include "engine/storage/sort_permutation.h"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <type_traits>

#include "engine/storage/value_order.h"

namespace granary
{
namespace
{

/// Sorting in parallel pays off only above this many rows.
constexpr size_t kParallelSortRows = 1 << 16;

/// Keys of up to this many 64-bit words are sorted as packed records.
constexpr size_t kMaxPackedWords = 4;

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

}  // namespace granary
