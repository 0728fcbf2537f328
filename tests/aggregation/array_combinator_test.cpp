// The -Array combinator through the Aggregator on every merge path and thread count: f over
// the elements of each group's arrays, against answers computed here from the elements
// (sum, count, exact distinct count, the multiset of groupArray, -If over whole rows, and a
// two-argument argMax over paired elements), and arrays of unequal lengths as an error.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/aggregation/aggregator.h"
#include "engine/common/exception.h"
#include "merge_path_shapes.h"
#include "reference_aggregator.h"

namespace granary
{
namespace
{

/// Row r: a of (r % 5) elements (r + i) % 23 - 5, b of as many elements i * 7 % 11, c = r % 3
/// != 0 (the -If condition).
struct Rows
{
    Block table;
    struct Expected
    {
        int64_t sum = 0;
        uint64_t count = 0;
        std::set<int64_t> distinct;
        std::vector<int64_t> all;
        int64_t sum_if = 0;
        int64_t best_b = -1;
        int64_t a_at_best_b = 0;
    };
    std::map<uint64_t, Expected> expected;
};

Rows makeRows(const testing::MergePathShape& shape)
{
    Rows rows;
    Column key(TypeId::UInt64);
    Column a(DataType::array(TypeId::Int64));
    Column b(DataType::array(TypeId::Int64));
    Column c(TypeId::UInt8);
    for (size_t row = 0; row < testing::kShapeRows; ++row)
    {
        const uint64_t group = shape.group_of(row);
        Rows::Expected& expected = rows.expected[group];
        key.append(group);
        const bool kept = row % 3 != 0;
        c.append(static_cast<uint8_t>(kept));
        for (size_t i = 0; i < row % 5; ++i)
        {
            const auto value = static_cast<int64_t>((row + i) % 23) - 5;
            const auto paired = static_cast<int64_t>(i * 7 % 11);
            a.child(0).append(value);
            b.child(0).append(paired);
            expected.sum += value;
            ++expected.count;
            expected.distinct.insert(value);
            expected.all.push_back(value);
            expected.sum_if += kept ? value : 0;
            // argMax keeps the first element of the largest b.
            if (paired > expected.best_b)
            {
                expected.best_b = paired;
                expected.a_at_best_b = value;
            }
        }
        a.closeNestedRow();
        b.closeNestedRow();
    }
    rows.table.columns.push_back({"key", std::move(key)});
    rows.table.columns.push_back({"a", std::move(a)});
    rows.table.columns.push_back({"b", std::move(b)});
    rows.table.columns.push_back({"c", std::move(c)});
    return rows;
}

TEST(ArrayCombinator, AggregatesTheElementsOnEveryMergePathAndThreadCount)
{
    const std::vector<AggregateDescription> descriptions = {
        {"sumArray", {"a"}, "sum"},
        {"countArray", {"a"}, "count"},
        {"uniqExactArray", {"a"}, "distinct"},
        {"groupArrayArray", {"a"}, "all"},
        {"sumArrayIf", {"a", "c"}, "sum_if"},
        {"maxArray", {"b"}, "best_b"},
    };
    for (const testing::MergePathShape& shape : testing::mergePathShapes())
    {
        const Rows rows = makeRows(shape);
        const BlockView input = BlockView::of(rows.table);
        for (const size_t threads : testing::kShapeThreadCounts)
        {
            SCOPED_TRACE(shape.name + " threads " + std::to_string(threads));
            const Block result = testing::aggregateOnShape(shape, input, descriptions, threads);
            ASSERT_EQ(result.rows(), rows.expected.size());
            size_t failures = 0;
            for (size_t row = 0; row < result.rows() && failures < 5; ++row)
            {
                const uint64_t group = result.columns[0].column.valueAt<uint64_t>(row);
                const Rows::Expected& expected = rows.expected.at(group);
                const ColumnView all = result.columns[4].column.view();
                std::vector<int64_t> got;
                for (uint64_t i = all.offsets[row]; i < all.offsets[row + 1]; ++i)
                {
                    got.push_back(all.children[0].valueAt<int64_t>(i));
                }
                std::vector<int64_t> wanted = expected.all;
                std::sort(got.begin(), got.end());
                std::sort(wanted.begin(), wanted.end());
                const bool ok =
                    result.columns[1].column.valueAt<int64_t>(row) == expected.sum &&
                    result.columns[2].column.valueAt<uint64_t>(row) == expected.count &&
                    result.columns[3].column.valueAt<uint64_t>(row) == expected.distinct.size() &&
                    got == wanted &&
                    result.columns[5].column.valueAt<int64_t>(row) == expected.sum_if &&
                    (expected.count == 0 ||
                     result.columns[6].column.valueAt<int64_t>(row) == expected.best_b);
                if (!ok)
                {
                    ADD_FAILURE() << "group " << group;
                    ++failures;
                }
            }
        }
    }
}

TEST(ArrayCombinator, PairsElementsAndRefusesArraysOfUnequalLengths)
{
    Column key(TypeId::UInt64);
    Column a(DataType::array(TypeId::Int64));
    Column b(DataType::array(TypeId::Int64));
    for (const auto& [values, weights] :
         std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
             {{1, 2, 3}, {10, 30, 20}}, {{4}, {5}}, {{}, {}}})
    {
        key.append(uint64_t{0});
        for (size_t i = 0; i < values.size(); ++i)
        {
            a.child(0).append(values[i]);
            b.child(0).append(weights[i]);
        }
        a.closeNestedRow();
        b.closeNestedRow();
    }
    Block table;
    table.columns.push_back({"key", std::move(key)});
    table.columns.push_back({"a", std::move(a)});
    table.columns.push_back({"b", std::move(b)});
    QueryContext context(2);
    const Block result = Aggregator({"key"}, {{"argMaxArray", {"a", "b"}, "best"}})
                             .execute(BlockView::of(table), context);
    EXPECT_EQ(result.columns[1].column.valueAt<int64_t>(0), 2);  // b = 30 pairs with a = 2.

    // A row whose arrays differ in length.
    table.columns[1].column.child(0).append(int64_t{9});
    table.columns[1].column.closeNestedRow();
    table.columns[2].column.closeNestedRow();
    table.columns[0].column.append(uint64_t{0});
    try
    {
        Aggregator({"key"}, {{"argMaxArray", {"a", "b"}, "best"}})
            .execute(BlockView::of(table), context);
        FAIL() << "arrays of unequal lengths must be refused";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(error.what()).find("1 and 0"), std::string::npos) << error.what();
    }
    // A non-Array argument.
    EXPECT_THROW(
        Aggregator({"key"}, {{"sumArray", {"key"}, "s"}}).execute(BlockView::of(table), context),
        Exception);
}

}  // namespace
}  // namespace granary
