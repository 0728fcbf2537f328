#include "engine/columns/sort_permutation.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <tuple>

namespace granary
{
namespace
{

/// -1, 0 or 1; NaN sorts after every number, as in ClickHouse's default NULLS/NaN LAST.
template <typename T>
int compareValues(const T& left, const T& right)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        const bool left_nan = std::isnan(left);
        const bool right_nan = std::isnan(right);
        if (left_nan || right_nan)
        {
            return static_cast<int>(left_nan) - static_cast<int>(right_nan);
        }
    }
    return left < right ? -1 : (right < left ? 1 : 0);
}

/// Row `row` of `column`, whose values are T (string_view for strings).
template <typename T>
T valueOf(const ColumnView& column, size_t row)
{
    if constexpr (std::is_same_v<T, std::string_view>)
    {
        return column.stringAt(row);
    }
    else
    {
        return column.valueAt<T>(row);
    }
}

using RowComparator = int (*)(const ColumnView&, uint32_t, uint32_t);

template <typename T>
int compareRows(const ColumnView& column, uint32_t left, uint32_t right)
{
    return compareValues(valueOf<T>(column, left), valueOf<T>(column, right));
}

/// Sort keys of up to this many fixed-width numeric columns without NULLs are sorted as
/// normalized keys: one unsigned word per column, compared inline.
constexpr size_t kMaxNormalizedKeys = 2;

/// `value` as an unsigned word whose unsigned order is ClickHouse's order of the values: the
/// sign bit flipped for signed integers; for floats the IEEE trick (negative ones inverted,
/// positive ones with the sign bit set), after -0 becomes +0 (they compare equal) and every NaN
/// the positive quiet NaN, which then sorts after +inf as compareValues has it.
template <typename T>
uint64_t normalizedWord(T value)
{
    constexpr uint64_t kSignBit = uint64_t{1} << 63;
    if constexpr (std::is_floating_point_v<T>)
    {
        double wide = value == 0 ? 0.0 : static_cast<double>(value);
        if (std::isnan(wide))
        {
            wide = std::numeric_limits<double>::quiet_NaN();
        }
        const auto bits = std::bit_cast<uint64_t>(wide);
        return (bits & kSignBit) != 0 ? ~bits : bits | kSignBit;
    }
    else if constexpr (std::is_signed_v<T>)
    {
        return static_cast<uint64_t>(static_cast<int64_t>(value)) ^ kSignBit;
    }
    else
    {
        return static_cast<uint64_t>(value);
    }
}

/// A row's normalized keys, its row number last: ties keep row order.
template <size_t Words>
struct NormalizedRow
{
    std::array<uint64_t, Words> words;
    uint32_t row;

    bool operator<(const NormalizedRow& other) const
    {
        return std::tie(words, row) < std::tie(other.words, other.row);
    }
};

template <size_t Words>
std::vector<NormalizedRow<Words>> normalizedRows(const std::vector<SortKey>& keys, size_t rows)
{
    std::vector<NormalizedRow<Words>> normalized(rows);
    for (size_t k = 0; k < Words; ++k)
    {
        const SortKey& key = keys[k];
        // Descending: the complement reverses the unsigned order.
        const uint64_t flip = key.descending ? ~uint64_t{0} : 0;
        dispatchFixedType(key.column.type,
                          [&]<typename T>(TypeTag<T>)
                          {
                              const T* values = static_cast<const T*>(key.column.data);
                              for (size_t row = 0; row < rows; ++row)
                              {
                                  normalized[row].words[k] = normalizedWord(values[row]) ^ flip;
                              }
                          });
    }
    for (size_t row = 0; row < rows; ++row)
    {
        normalized[row].row = static_cast<uint32_t>(row);
    }
    return normalized;
}

bool normalizable(const std::vector<SortKey>& keys)
{
    return !keys.empty() && keys.size() <= kMaxNormalizedKeys &&
           std::all_of(keys.begin(), keys.end(),
                       [](const SortKey& key)
                       {
                           return !key.column.hasValidity() && !isNested(key.column.type) &&
                                  key.column.type != TypeId::String;
                       });
}

/// The order of `keys` over rows compared one key at a time through a call per column.
class GeneralRowOrder
{
public:
    explicit GeneralRowOrder(const std::vector<SortKey>& keys) : keys_(keys)
    {
        for (const SortKey& key : keys)
        {
            comparators_.push_back(dispatchType(key.column.type, []<typename T>(TypeTag<T>)
                                                { return RowComparator{&compareRows<T>}; }));
        }
    }

    bool operator()(uint32_t left, uint32_t right) const
    {
        for (size_t k = 0; k < keys_.size(); ++k)
        {
            const bool left_null = !keys_[k].column.isValid(left);
            const bool right_null = !keys_[k].column.isValid(right);
            if (left_null || right_null)
            {
                if (left_null == right_null)
                {
                    continue;
                }
                return left_null == keys_[k].nulls_first;
            }
            const int order = comparators_[k](keys_[k].column, left, right);
            if (order != 0)
            {
                return keys_[k].descending ? order > 0 : order < 0;
            }
        }
        return left < right;
    }

private:
    const std::vector<SortKey>& keys_;
    std::vector<RowComparator> comparators_;
};

inline uint32_t rowOf(uint32_t row)
{
    return row;
}
template <size_t Words>
uint32_t rowOf(const NormalizedRow<Words>& row)
{
    return row.row;
}

/// Calls f(items, less) with one item per row whose order under `less` is the rows' order
/// (ties by row, so every order is strict): normalized keys where they serve, else row numbers
/// compared column by column. rowOf(item) gives an item's row.
template <typename F>
decltype(auto) withRowOrder(const std::vector<SortKey>& keys, size_t rows, F&& f)
{
    if (normalizable(keys))
    {
        if (keys.size() == 1)
        {
            auto items = normalizedRows<1>(keys, rows);
            return f(items, std::less<>{});
        }
        auto items = normalizedRows<2>(keys, rows);
        return f(items, std::less<>{});
    }
    std::vector<uint32_t> items(rows);
    std::iota(items.begin(), items.end(), 0);
    return f(items, GeneralRowOrder(keys));
}

/// Appends to `rows` the rows among the first `count` of `column` (values T) whose value
/// comes before `limit` in the order `descending` gives, and with `with_ties` those equal to
/// it too.
template <typename T>
void appendRowsAhead(const ColumnView& column, size_t count, bool descending, const T& limit,
                     bool with_ties, std::vector<uint32_t>& rows)
{
    // Ahead: compareValues < 0 ascending, > 0 descending; a tie is 0 either way.
    const int direction = descending ? -1 : 1;
    const int last_ahead = with_ties ? 0 : -1;
    for (uint32_t row = 0; row < count; ++row)
    {
        if (compareValues(valueOf<T>(column, row), limit) * direction <= last_ahead)
        {
            rows.push_back(row);
        }
    }
}

}  // namespace

std::vector<uint32_t> sortedPermutation(const std::vector<SortKey>& keys, size_t rows, size_t limit)
{
    return withRowOrder(keys, rows,
                        [&](auto& items, auto less)
                        {
                            const size_t kept = std::min(limit, rows);
                            const auto kept_end = items.begin() + static_cast<ptrdiff_t>(kept);
                            std::partial_sort(items.begin(), kept_end, items.end(), less);
                            std::vector<uint32_t> permutation(kept);
                            std::transform(items.begin(), kept_end, permutation.begin(),
                                           [](const auto& item) { return rowOf(item); });
                            return permutation;
                        });
}

std::vector<uint32_t> firstRowsInRowOrder(const std::vector<SortKey>& keys, size_t rows,
                                          size_t limit)
{
    return withRowOrder(keys, rows,
                        [&](auto& items, auto less)
                        {
                            const size_t kept = std::min(limit, rows);
                            const auto kept_end = items.begin() + static_cast<ptrdiff_t>(kept);
                            if (kept < rows)
                            {
                                std::nth_element(items.begin(), kept_end, items.end(), less);
                            }
                            // Marks instead of a sort of the kept rows: one pass over all.
                            std::vector<uint8_t> is_kept(rows, 0);
                            std::for_each(items.begin(), kept_end,
                                          [&](const auto& item) { is_kept[rowOf(item)] = 1; });
                            std::vector<uint32_t> first;
                            first.reserve(kept);
                            for (uint32_t row = 0; row < rows; ++row)
                            {
                                if (is_kept[row] != 0)
                                {
                                    first.push_back(row);
                                }
                            }
                            return first;
                        });
}

std::vector<uint32_t> topCandidates(const SortKey& first, size_t rows, size_t limit)
{
    if (first.column.hasValidity())  // NULLs are ordered by sortedPermutation alone
    {
        std::vector<uint32_t> all(rows);
        std::iota(all.begin(), all.end(), 0);
        return all;
    }
    return dispatchType(
        first.column.type,
        [&]<typename T>(TypeTag<T>)
        {
            const auto better = [&](const T& left, const T& right)
            {
                const int order = compareValues(left, right);
                return first.descending ? order > 0 : order < 0;
            };
            std::vector<T> values(rows);
            for (size_t row = 0; row < rows; ++row)
            {
                values[row] = valueOf<T>(first.column, row);
            }
            const auto boundary = values.begin() + static_cast<ptrdiff_t>(limit - 1);
            std::nth_element(values.begin(), boundary, values.end(), better);
            std::vector<uint32_t> candidates;
            appendRowsAhead(first.column, rows, first.descending, *boundary, true, candidates);
            return candidates;
        });
}

std::optional<uint32_t> lastInOrder(const SortKey& key, size_t rows)
{
    if (rows == 0 || key.column.hasValidity() || isNested(key.column.type))
    {
        return std::nullopt;
    }
    return dispatchType(key.column.type,
                        [&]<typename T>(TypeTag<T>)
                        {
                            uint32_t last = 0;
                            T last_value = valueOf<T>(key.column, 0);
                            for (uint32_t row = 1; row < rows; ++row)
                            {
                                const T value = valueOf<T>(key.column, row);
                                const int order = compareValues(value, last_value);
                                if (key.descending ? order < 0 : order > 0)
                                {
                                    last = row;
                                    last_value = value;
                                }
                            }
                            return last;
                        });
}

void rowsAheadOf(const ColumnView& values, bool descending, const ColumnView& bound,
                 size_t bound_row, bool with_ties, std::vector<uint32_t>& rows)
{
    rows.clear();
    if (values.hasValidity() || bound.hasValidity() || isNested(values.type))
    {
        rows.resize(values.rows);
        std::iota(rows.begin(), rows.end(), 0);
        return;
    }
    dispatchType(values.type,
                 [&]<typename T>(TypeTag<T>)
                 {
                     appendRowsAhead(values, values.rows, descending, valueOf<T>(bound, bound_row),
                                     with_ties, rows);
                 });
}

}  // namespace granary
