// GROUP BY one key (fixed-width, or strings by their numbers) with count(DISTINCT x) alone,
// routed by x to value buckets (countDistinctByValueBuckets), against the naive reference
// aggregator.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/aggregation/aggregator.h"
#include "reference_aggregator.h"
#include "test_table.h"

namespace granary
{
namespace
{

/// count(DISTINCT value) by key over `table` at `threads`, checked against the reference;
/// returns the query's stats.
QueryStats distinctByKey(const Block& table, const std::string& key, const std::string& value,
                         size_t threads, AggregationSettings settings = {})
{
    const std::vector<testing::AggregateSpec> specs = {{"uniqExact", value}};
    const BlockView input = BlockView::of(table);
    settings.max_threads = threads;
    settings.morsel_rows = 2'000;
    Aggregator aggregator({key}, {{"uniqExact", {value}, "distinct"}}, settings);
    QueryContext context(threads);
    const Block result = aggregator.execute(input, context);
    EXPECT_EQ(testing::compareWithReference(result, 1, specs,
                                            testing::referenceAggregate(input, {key}, specs)),
              "")
        << key << ", " << value << ", " << threads << " threads";
    return context.stats();
}

/// 600 groups of uneven sizes: group 0 holds a third of the rows.
Block skewedTable(size_t rows, uint64_t seed)
{
    return testing::makeTestTable(
        rows, [](size_t row) { return row % 3 == 0 ? 0 : (row * 2654435761u) % 600; }, seed);
}

TEST(DistinctValueBuckets, EveryFixedWidthKeyAndValueTypeMatchesTheReference)
{
    const Block table = skewedTable(30'000, 41);
    for (const char* key : {"k_u8", "k_i8", "k_u16", "k_date", "k_u32", "k_i32", "k_f32", "k_dt",
                            "k_u64", "k_i64", "k_f64"})
    {
        for (const char* value : {"v_u32", "v_i64", "v_f64", "v_i8"})
        {
            for (const size_t threads : {1, 7})
            {
                const QueryStats stats = distinctByKey(table, key, value, threads);
                EXPECT_EQ(stats.distinct_merge_path, MergePath::kValueBuckets) << key << value;
            }
        }
    }
}

TEST(DistinctValueBuckets, StringKeysAreNumberedAndMatchTheReference)
{
    // k_str: lengths around the inline-string boundaries, NUL and high bytes, the empty
    // string; each worker numbers the keys it meets, the first worker's numbering takes in
    // the others'.
    const Block table = skewedTable(30'000, 61);
    for (const char* value : {"v_u32", "v_i64", "v_f64", "v_i8", "k_u64"})
    {
        for (const size_t threads : {1, 2, 7, 64})
        {
            const QueryStats stats = distinctByKey(table, "k_str", value, threads);
            EXPECT_EQ(stats.distinct_merge_path, MergePath::kValueBuckets) << value;
            EXPECT_EQ(stats.partitioned_rows, 30'000u);
        }
    }
    // Keys only one worker meets, and a key per row.
    Block distinct_keys = testing::makeTestTable(
        40'000, [](size_t row) { return row; }, 67);
    for (const size_t threads : {1, 3, 256})
    {
        const QueryStats stats = distinctByKey(distinct_keys, "k_str", "v_u32", threads);
        if (threads == 256)
        {
            // 256 tasks share the numberings; then the stripes' count vectors are bounded to
            // 64 MiB together: about 210 stripes of 40,000 counts, not 256.
            std::set<std::string_view> keys;
            const Column& strings = *distinct_keys.find("k_str");
            for (size_t row = 0; row < strings.size(); ++row)
            {
                keys.insert(strings.stringAt(row));
            }
            const size_t stripes = (size_t{64} << 20) / (keys.size() * sizeof(uint64_t));
            ASSERT_LT(stripes, 256u);
            EXPECT_EQ(stats.phase(QueryPhase::kMerge).tasks, 256u + stripes);
        }
    }
}

TEST(DistinctValueBuckets, ManyThreadsRouteEveryRowOnceAndCountEachBucketOnce)
{
    // Values of their own per row (v = row), so every bucket holds pairs.
    const Block table = skewedTable(60'000, 43);
    // Count tasks: one stripe of value buckets alone, four per worker (at most 256) with more;
    // then, with more than one stripe, 256 key-hash buckets summed.
    const std::pair<size_t, size_t> threads_and_merge_tasks[] = {
        {1, 1}, {2, 8 + 256}, {7, 28 + 256}, {64, 256 + 256}, {256, 256 + 256}};
    for (const auto& [threads, merge_tasks] : threads_and_merge_tasks)
    {
        const QueryStats stats = distinctByKey(table, "k_u32", "k_u64", threads);
        EXPECT_EQ(stats.distinct_merge_path, MergePath::kValueBuckets);
        EXPECT_EQ(stats.partitioned_rows, 60'000u) << threads;
        EXPECT_EQ(stats.input_rows, 60'000u);
        EXPECT_EQ(stats.phase(QueryPhase::kMerge).tasks, merge_tasks) << threads;
        EXPECT_EQ(stats.phase(QueryPhase::kFinalize).tasks, 256u);
    }
}

TEST(DistinctValueBuckets, AHeavyKeysManyValuesAreCountedAcrossBuckets)
{
    // Half the rows in one group, each with a value of its own: its count sums 256 buckets.
    Block table = testing::makeTestTable(
        40'000, [](size_t row) { return row % 2 == 0 ? 7 : row % 50; }, 47);
    table.columns.push_back({"unique", Column(TypeId::UInt64)});
    for (size_t row = 0; row < 40'000; ++row)
    {
        table.columns.back().column.append(uint64_t{row * 0x9E3779B97F4A7C15ULL});
    }
    for (const size_t threads : {1, 4, 64})
    {
        distinctByKey(table, "k_u64", "unique", threads);
    }
}

TEST(DistinctValueBuckets, OtherShapesKeepThePerKeySets)
{
    const Block table = skewedTable(10'000, 53);
    AggregationSettings off;
    off.distinct.count_by_value_buckets = false;
    EXPECT_EQ(distinctByKey(table, "k_u32", "v_u32", 4, off).distinct_merge_path, MergePath::kNone);
    // A String key over more input rows than string_key_value_buckets_rows: not this plan.
    AggregationSettings few_rows;
    few_rows.string_key_value_buckets_rows = 9'999;
    EXPECT_NE(distinctByKey(table, "k_str", "v_u32", 4, few_rows).distinct_merge_path,
              MergePath::kValueBuckets);
    few_rows.string_key_value_buckets_rows = 10'000;
    EXPECT_EQ(distinctByKey(table, "k_str", "v_u32", 4, few_rows).distinct_merge_path,
              MergePath::kValueBuckets);
    // A string value: not this plan.
    EXPECT_NE(distinctByKey(table, "k_u32", "v_str", 4).distinct_merge_path,
              MergePath::kValueBuckets);
    // Beside another aggregate: not this plan either.
    Aggregator both({"k_u32"}, {{"uniqExact", {"v_u32"}, "u"}, {"count", {}, "c"}}, {});
    QueryContext context(4);
    both.execute(BlockView::of(table), context);
    EXPECT_NE(context.stats().distinct_merge_path, MergePath::kValueBuckets);
}

TEST(DistinctValueBuckets, EmptyInputGivesAnEmptyResultOfTheRightTypes)
{
    const Block table = skewedTable(0, 59);
    Aggregator aggregator({"k_i32"}, {{"uniqExact", {"v_f64"}, "distinct"}}, {});
    QueryContext context(4);
    const Block result = aggregator.execute(BlockView::of(table), context);
    ASSERT_EQ(result.columns.size(), 2u);
    EXPECT_EQ(result.rows(), 0u);
    EXPECT_EQ(result.columns[0].name, "k_i32");
    EXPECT_EQ(result.columns[0].column.type(), TypeId::Int32);
    EXPECT_EQ(result.columns[1].name, "distinct");
    EXPECT_EQ(result.columns[1].column.type(), TypeId::UInt64);

    Aggregator strings({"k_str"}, {{"uniqExact", {"v_u32"}, "distinct"}}, {});
    const Block string_result = strings.execute(BlockView::of(table), context);
    EXPECT_EQ(string_result.rows(), 0u);
    EXPECT_EQ(string_result.columns[0].column.type(), TypeId::String);
}

}  // namespace
}  // namespace granary
