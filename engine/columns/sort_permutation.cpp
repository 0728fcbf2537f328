#include "engine/columns/sort_permutation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

}  // namespace

std::vector<uint32_t> sortedPermutation(const std::vector<SortKey>& keys, size_t rows, size_t limit)
{
    std::vector<uint32_t> permutation(rows);
    std::iota(permutation.begin(), permutation.end(), 0);
    std::vector<RowComparator> comparators;
    for (const SortKey& key : keys)
    {
        comparators.push_back(dispatchType(key.column.type, []<typename T>(TypeTag<T>)
                                           { return RowComparator{&compareRows<T>}; }));
    }
    auto less = [&](uint32_t left, uint32_t right)
    {
        for (size_t k = 0; k < keys.size(); ++k)
        {
            const bool left_null = !keys[k].column.isValid(left);
            const bool right_null = !keys[k].column.isValid(right);
            if (left_null || right_null)
            {
                if (left_null == right_null)
                {
                    continue;
                }
                return left_null == keys[k].nulls_first;
            }
            const int order = comparators[k](keys[k].column, left, right);
            if (order != 0)
            {
                return keys[k].descending ? order > 0 : order < 0;
            }
        }
        return left < right;
    };
    if (limit < rows)
    {
        std::partial_sort(permutation.begin(), permutation.begin() + limit, permutation.end(),
                          less);
        permutation.resize(limit);
    }
    else
    {
        std::sort(permutation.begin(), permutation.end(), less);
    }
    return permutation;
}

std::vector<uint32_t> topCandidates(const SortKey& first, size_t rows, size_t limit)
{
    if (first.column.hasValidity())  // NULLs are ordered by sortedPermutation alone
    {
        std::vector<uint32_t> all(rows);
        std::iota(all.begin(), all.end(), 0);
        return all;
    }
    return dispatchType(first.column.type,
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
                            const auto boundary =
                                values.begin() + static_cast<ptrdiff_t>(limit - 1);
                            std::nth_element(values.begin(), boundary, values.end(), better);
                            const T worst_kept = *boundary;
                            std::vector<uint32_t> candidates;
                            for (size_t row = 0; row < rows; ++row)
                            {
                                if (!better(worst_kept, valueOf<T>(first.column, row)))
                                {
                                    candidates.push_back(static_cast<uint32_t>(row));
                                }
                            }
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
                     const T limit = valueOf<T>(bound, bound_row);
                     // Ahead: order < 0 ascending, > 0 descending; a tie is 0 either way.
                     const int direction = descending ? -1 : 1;
                     const int last_ahead = with_ties ? 0 : -1;
                     for (uint32_t row = 0; row < values.rows; ++row)
                     {
                         const int order = compareValues(valueOf<T>(values, row), limit);
                         if (order * direction <= last_ahead)
                         {
                             rows.push_back(row);
                         }
                     }
                 });
}

}  // namespace granary
