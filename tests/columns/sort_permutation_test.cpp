// sortedPermutation and firstRowsInRowOrder against a stable sort with a comparator written here:
// numeric keys (which take the normalized-key path), strings and NULLs (the general path),
// ascending and descending, with ties, NaN and signed zeros.

#include "engine/columns/sort_permutation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "engine/columns/column.h"

namespace granary
{
namespace
{

constexpr size_t kRows = 3'000;

uint64_t mixed(size_t row, uint64_t seed)
{
    uint64_t z = row * 0x9E3779B97F4A7C15ULL + seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    return z ^ (z >> 27);
}

/// -1, 0 or 1 in ClickHouse's order: NaN after every number, -0 equal to +0.
template <typename T>
int naiveCompare(T left, T right)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        if (std::isnan(left) || std::isnan(right))
        {
            return int(std::isnan(left)) - int(std::isnan(right));
        }
    }
    return left < right ? -1 : (right < left ? 1 : 0);
}

/// Columns of each kind with many ties: values drawn from a few dozen.
std::vector<Column> testColumns()
{
    std::vector<Column> columns;
    columns.emplace_back(TypeId::Int8);
    columns.emplace_back(TypeId::UInt64);
    columns.emplace_back(TypeId::Int64);
    columns.emplace_back(TypeId::Float64);
    columns.emplace_back(TypeId::Float32);
    columns.emplace_back(TypeId::Date);
    columns.emplace_back(TypeId::String);
    for (size_t row = 0; row < kRows; ++row)
    {
        const uint64_t r = mixed(row, 17);
        columns[0].append(int8_t(int(r % 40) - 20));
        columns[1].append(r % 7 == 0 ? std::numeric_limits<uint64_t>::max() - r % 3 : r % 30);
        columns[2].append(int64_t(r % 50) - 25 + (r % 11 == 0 ? INT64_MIN / 2 : 0));
        const double d = r % 13 == 0   ? std::numeric_limits<double>::quiet_NaN()
                         : r % 17 == 0 ? -0.0
                         : r % 19 == 0 ? -std::numeric_limits<double>::infinity()
                                       : (double(r % 60) - 30) / 4;
        columns[3].append(r % 23 == 0 ? -std::numeric_limits<double>::quiet_NaN() : d);
        columns[4].append(float(d));
        columns[5].append(uint16_t(15'000 + r % 25));
        columns[6].appendString("s" + std::to_string(r % 45));
    }
    return columns;
}

int compareRow(const Column& column, size_t left, size_t right)
{
    const ColumnView view = column.view();
    if (column.type() == TypeId::String)
    {
        return naiveCompare(view.stringAt(left), view.stringAt(right));
    }
    return dispatchFixedType(
        column.type(), [&]<typename T>(TypeTag<T>)
        { return naiveCompare(view.valueAt<T>(left), view.valueAt<T>(right)); });
}

std::vector<uint32_t> naiveFirstRows(const std::vector<const Column*>& columns,
                                     const std::vector<bool>& descending, size_t limit)
{
    std::vector<uint32_t> rows(kRows);
    std::iota(rows.begin(), rows.end(), 0);
    std::stable_sort(rows.begin(), rows.end(),
                     [&](uint32_t left, uint32_t right)
                     {
                         for (size_t k = 0; k < columns.size(); ++k)
                         {
                             const int order = compareRow(*columns[k], left, right);
                             if (order != 0)
                             {
                                 return descending[k] ? order > 0 : order < 0;
                             }
                         }
                         return false;
                     });
    rows.resize(std::min(limit, rows.size()));
    return rows;
}

/// sortedPermutation gives the first rows in order, firstRowsInRowOrder the same set by row.
TEST(SortedPermutation, MatchesAStableSortForOneTwoAndThreeKeys)
{
    const std::vector<Column> columns = testColumns();
    for (size_t first = 0; first < columns.size(); ++first)
    {
        for (size_t second = 0; second <= columns.size(); ++second)
        {
            for (const bool descending : {false, true})
            {
                std::vector<const Column*> chosen{&columns[first]};
                if (second < columns.size())
                {
                    chosen.push_back(&columns[second]);
                }
                if (first == 0 && second == 1)
                {
                    chosen.push_back(&columns[6]);  // three keys: the general path
                }
                std::vector<bool> directions;
                std::vector<SortKey> keys;
                for (size_t k = 0; k < chosen.size(); ++k)
                {
                    directions.push_back(k % 2 == 0 ? descending : !descending);
                    keys.push_back({chosen[k]->view(), directions.back()});
                }
                for (const size_t limit : {size_t{1}, size_t{10}, size_t{1'010}, kRows})
                {
                    SCOPED_TRACE(std::string(typeName(chosen[0]->type())) + " then " +
                                 std::to_string(chosen.size() - 1) + " more, " +
                                 (descending ? "desc" : "asc") + ", limit " +
                                 std::to_string(limit));
                    std::vector<uint32_t> expected = naiveFirstRows(chosen, directions, limit);
                    EXPECT_EQ(sortedPermutation(keys, kRows, limit), expected);
                    std::sort(expected.begin(), expected.end());
                    EXPECT_EQ(firstRowsInRowOrder(keys, kRows, limit), expected);
                }
            }
        }
    }
}

TEST(SortedPermutation, NullsGoWhereTheKeySays)
{
    Column with_nulls(TypeId::Int32);
    for (size_t row = 0; row < 100; ++row)
    {
        if (row % 9 == 0)
        {
            with_nulls.appendNull();
        }
        else
        {
            with_nulls.append(int32_t(mixed(row, 3) % 10));
        }
    }
    for (const bool nulls_first : {false, true})
    {
        const std::vector<uint32_t> order =
            sortedPermutation({{with_nulls.view(), false, nulls_first}}, 100, 100);
        const ColumnView view = with_nulls.view();
        std::vector<uint32_t> nulls;
        std::vector<uint32_t> values;
        for (uint32_t row = 0; row < 100; ++row)
        {
            (view.isValid(row) ? values : nulls).push_back(row);
        }
        std::stable_sort(values.begin(), values.end(),
                         [&](uint32_t a, uint32_t b)
                         { return view.valueAt<int32_t>(a) < view.valueAt<int32_t>(b); });
        std::vector<uint32_t> expected = nulls_first ? nulls : values;
        const std::vector<uint32_t>& rest = nulls_first ? values : nulls;
        expected.insert(expected.end(), rest.begin(), rest.end());
        EXPECT_EQ(order, expected) << (nulls_first ? "nulls first" : "nulls last");
    }
}

}  // namespace
}  // namespace granary
