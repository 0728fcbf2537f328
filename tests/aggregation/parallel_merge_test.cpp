// The seed's pathologies as tests: count(DISTINCT) merges at many threads where some partial
// sets stay single-level (ClickBench Q5 became slower from 80 to 112 threads because those
// were converted one after another), and large keyed distinct states merged bucket-parallel.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/aggregation/aggregator.h"
#include "engine/aggregation/bucket_scatter.h"
#include "engine/aggregation/new_keys_estimate.h"
#include "reference_aggregator.h"
#include "test_table.h"

namespace granary
{
namespace
{

/// 300 morsels of 2000 rows: at 256 workers, some hold one morsel and some two, so the partial
/// sets are mixed single-level and two-level under the threshold below.
constexpr size_t kMorselRows = 2000;
constexpr size_t kMorsels = 300;
/// Buckets of a two-level table.
constexpr size_t kTwoLevelBuckets = 256;

AggregationSettings distinctSettings(size_t threads)
{
    AggregationSettings settings;
    settings.max_threads = threads;
    settings.morsel_rows = kMorselRows;
    settings.deterministic_morsels = true;
    // A partial set of two morsels' values is two-level, one of one morsel not.
    settings.distinct.two_level_threshold = kMorselRows * 3 / 2;
    // Every value is new: sampled first rows would route every set from the start.
    settings.partition_new_keys_rows = 0;
    settings.distinct.merge_cost.min_average_size = kMorselRows / 2;
    return settings;
}

/// count(DISTINCT v) where every row holds a new value.
QueryStats countDistinct(size_t threads, const Block& table, uint64_t& result)
{
    Aggregator aggregator({}, {{"uniqExact", {"k_u64"}, "distinct"}}, distinctSettings(threads));
    QueryContext context(threads);
    const Block block = aggregator.execute(BlockView::of(table), context);
    result = block.columns[0].column.valueAt<uint64_t>(0);
    return context.stats();
}

TEST(ParallelMerge, Q5PathologyConvertsMixedSetsInParallel)
{
    const Block table = testing::makeTestTable(
        kMorsels * kMorselRows, [](size_t row) { return row + 1; }, 3);
    const uint64_t expected = kMorsels * kMorselRows;

    uint64_t at_8 = 0;
    const QueryStats stats_8 = countDistinct(8, table, at_8);
    EXPECT_EQ(at_8, expected);
    EXPECT_EQ(stats_8.distinct_merge_path, MergePath::kParallelTwoLevel);
    EXPECT_EQ(stats_8.single_level_sets, 0u);

    uint64_t at_256 = 0;
    const QueryStats stats_256 = countDistinct(256, table, at_256);
    EXPECT_EQ(at_256, expected);
    // 300 morsels over 256 workers: 44 workers hold two morsels (two-level), 212 hold one.
    EXPECT_EQ(stats_256.distinct_merge_path, MergePath::kParallelConvertMixed);
    EXPECT_EQ(stats_256.single_level_sets, 212u);
    EXPECT_EQ(stats_256.two_level_sets, 44u);
    // One independent task per single-level set (not one task converting them in turn), so
    // the phase's span is one task's, far below its work. How far is measured by
    // bench/aggregation; here only a factor two, which one task converting every set (span
    // equal to work) fails and a preempted task on a shared machine does not.
    const PhaseStats& convert = stats_256.phase(QueryPhase::kConvert);
    EXPECT_EQ(convert.tasks, 212u);
    EXPECT_LT(2 * convert.span_seconds, convert.work_seconds)
        << "span " << convert.span_seconds << " s, work " << convert.work_seconds << " s";
    const PhaseStats& merge = stats_256.phase(QueryPhase::kMerge);
    EXPECT_EQ(merge.tasks, 256u);
}

TEST(ParallelMerge, AllSingleLevelSetsAboveTheThresholdAreConvertedToo)
{
    const Block table = testing::makeTestTable(
        kMorsels * kMorselRows, [](size_t row) { return row + 1; }, 3);
    AggregationSettings settings = distinctSettings(64);
    settings.distinct.two_level_threshold = 1'000'000;
    Aggregator aggregator({}, {{"uniqExact", {"k_u64"}, "distinct"}}, settings);
    QueryContext context(64);
    const Block block = aggregator.execute(BlockView::of(table), context);
    EXPECT_EQ(block.columns[0].column.valueAt<uint64_t>(0), kMorsels * kMorselRows);
    EXPECT_EQ(context.stats().distinct_merge_path, MergePath::kParallelConvertAllSingle);
    EXPECT_EQ(context.stats().phase(QueryPhase::kConvert).tasks, 64u);

    // Small sets: one thread merges them.
    AggregationSettings small = settings;
    small.distinct.merge_cost.min_average_size = 1'000'000;
    QueryContext small_context(64);
    Aggregator({}, {{"uniqExact", {"k_u64"}, "distinct"}}, small)
        .execute(BlockView::of(table), small_context);
    EXPECT_EQ(small_context.stats().distinct_merge_path, MergePath::kSerial);
}

TEST(ParallelMerge, SetsOfSharedValuesMergeOnOneThreadUnlessManyWorkersShareTheWork)
{
    // Every worker's set holds the same 5,000 values. Converting and merging sets in parallel
    // costs about eleven times the serial work per value (BM_MergePath/distinct): one thread
    // wins up to 11 workers, the parallel path at 64.
    const Block table = testing::makeTestTable(
        64 * 4 * 5'000, [](size_t row) { return (row * 7919) % 5'000; }, 31);
    for (const auto& [threads, expected] :
         {std::pair{size_t{2}, MergePath::kSerial}, std::pair{size_t{8}, MergePath::kSerial},
          std::pair{size_t{64}, MergePath::kParallelConvertAllSingle}})
    {
        AggregationSettings settings;
        settings.max_threads = threads;
        settings.morsel_rows = 5'000;
        settings.deterministic_morsels = true;
        // The values cycle, so any sample of under 5,000 rows looks all new.
        settings.partition_new_keys_rows = 0;
        Aggregator aggregator({}, {{"uniqExact", {"k_u64"}, "distinct"}}, settings);
        QueryContext context(threads);
        const Block result = aggregator.execute(BlockView::of(table), context);
        EXPECT_EQ(result.columns[0].column.valueAt<uint64_t>(0), 5'000u) << threads;
        EXPECT_EQ(context.stats().single_level_sets, threads);
        EXPECT_EQ(context.stats().distinct_merge_path, expected) << threads << " threads";
    }
}

TEST(ParallelMerge, KeyedDistinctStatesMergeInParallelOnlyPastTheL2PerPartial)
{
    // Two workers (for whom the cost model always prefers one thread) with distinct-set
    // states: 600 groups each, tables and states of tens of kilobytes, merge on one thread;
    // 30,000 groups each, megabytes, bucket by bucket.
    for (const auto& [groups, expected] :
         {std::pair{size_t{600}, MergePath::kSerial},
          std::pair{size_t{30'000}, MergePath::kParallelConvertAllSingle}})
    {
        const Block table = testing::makeTestTable(
            200'000, [groups](size_t row) { return row % groups; }, 41);
        AggregationSettings settings;
        settings.max_threads = 2;
        settings.morsel_rows = 10'000;
        settings.deterministic_morsels = true;
        settings.distinct.count_by_value_buckets = false;
        Aggregator aggregator({"k_u64"}, {{"uniqExact", {"v_u32"}, "u"}}, settings);
        QueryContext context(2);
        const Block result = aggregator.execute(BlockView::of(table), context);
        const std::vector<testing::AggregateSpec> specs = {{"uniqExact", "v_u32"}};
        EXPECT_EQ(testing::compareWithReference(
                      result, 1, specs,
                      testing::referenceAggregate(BlockView::of(table), {"k_u64"}, specs)),
                  "")
            << groups;
        const QueryStats& stats = context.stats();
        EXPECT_EQ(stats.single_level_partials, 2u) << groups;
        EXPECT_EQ(stats.merge_path, expected)
            << groups << " groups: " << stats.partial_memory_bytes << " bytes in partials";
    }
}

TEST(ParallelMerge, LargeKeyedDistinctStatesMergeBucketParallel)
{
    // 4 groups (RegionID-like), each with thousands of distinct values (UserID-like).
    const size_t rows = 40'000;
    Block grouped = testing::makeTestTable(
        rows, [](size_t row) { return (row % 4) + 1; }, 5);
    grouped.columns.push_back({"user", Column(TypeId::UInt64)});
    for (size_t row = 0; row < rows; ++row)
    {
        grouped.columns.back().column.append(uint64_t{row * 7 + 1});
    }
    const std::vector<testing::AggregateSpec> specs = {{"uniqExact", "user"}, {"count", ""}};
    const BlockView grouped_input = BlockView::of(grouped);
    const auto reference = testing::referenceAggregate(grouped_input, {"k_u64"}, specs);

    AggregationSettings settings;
    settings.max_threads = 4;
    settings.morsel_rows = 1000;
    settings.deterministic_morsels = true;
    settings.distinct.two_level_threshold = 1000;
    settings.distinct.parallel_state_merge_min_size = 500;
    Aggregator aggregator({"k_u64"}, {{"uniqExact", {"user"}, "users"}, {"count", {}, "rows"}},
                          settings);
    QueryContext context(4);
    const Block result = aggregator.execute(grouped_input, context);
    EXPECT_EQ(testing::compareWithReference(result, 1, specs, reference), "");
    // 4 groups × 3 merges each (4 partials), all large.
    EXPECT_EQ(context.stats().parallel_state_merges, 12u);
    // The query's events count exactly its own work.
    const ProfileEventCounts& events = context.stats().profile_events;
    EXPECT_EQ(events[ProfileEvent::RowsRead], rows);
    EXPECT_EQ(events[ProfileEvent::MergeTasks],
              context.stats().merge_path == MergePath::kSerial ? 0u : 256u);
    EXPECT_GT(events[ProfileEvent::ArenaBytes], 0u);
    EXPECT_GT(context.stats().phase(QueryPhase::kMerge).tasks, 256u);
}

TEST(ParallelMerge, MoreWorkersThanThreadsGiveOnePartialEach)
{
    // 256 partials of a GROUP BY on 2 threads: every worker takes its share of the morsels
    // (round-robin, although morsels are taken dynamically otherwise), and the groups equal the
    // reference aggregator's.
    const size_t rows = 256 * 4 * 1000;
    const Block table = testing::makeTestTable(
        rows, [](size_t row) { return (row * 2654435761u) % 50'000; }, 7);
    const std::vector<testing::AggregateSpec> specs = {{"count", ""}, {"sum", "v_u32"}};
    const BlockView input = BlockView::of(table);
    const auto reference = testing::referenceAggregate(input, {"k_u64"}, specs);

    AggregationSettings settings;
    settings.morsel_rows = 1000;
    Aggregator aggregator({"k_u64"}, {{"count", {}, "rows"}, {"sum", {"v_u32"}, "total"}},
                          settings);
    QueryContext context(2);
    context.setWorkers(256);
    const Block result = aggregator.execute(input, context);
    EXPECT_EQ(testing::compareWithReference(result, 1, specs, reference), "");
    EXPECT_EQ(context.stats().partials, 256u);
    EXPECT_EQ(context.stats().phase(QueryPhase::kPartial).tasks, 1024u);
}

/// count and sum by k_u64 over `table` on `threads` threads, checked against the reference
/// aggregator; returns the query's stats.
QueryStats countAndSumByKey(const Block& table, size_t threads, AggregationSettings settings,
                            const std::string& key = "k_u64")
{
    const std::vector<testing::AggregateSpec> specs = {{"count", ""}, {"sum", "v_u32"}};
    const BlockView input = BlockView::of(table);
    settings.max_threads = threads;
    Aggregator aggregator({key}, {{"count", {}, "rows"}, {"sum", {"v_u32"}, "total"}}, settings);
    QueryContext context(threads);
    const Block result = aggregator.execute(input, context);
    EXPECT_EQ(testing::compareWithReference(result, 1, specs,
                                            testing::referenceAggregate(input, {key}, specs)),
              "")
        << threads << " threads, key " << key;
    return context.stats();
}

/// Morsels of 5,000 rows, worker w taking morsels w, w + threads, ... The keys of these tests
/// cycle through their groups, so that a worker's first rows look all new: the tests are made
/// for the merge paths, not for partitioning from the first rows (partition_new_keys_rows,
/// tested on its own below).
AggregationSettings fixedMorselSettings()
{
    AggregationSettings settings;
    settings.morsel_rows = 5'000;
    settings.deterministic_morsels = true;
    settings.partition_new_keys_rows = 0;
    return settings;
}

TEST(ParallelMerge, SharedKeysMergeOnOneThreadUnlessThreadsOutnumberTheExtraWork)
{
    // Every partial holds the same 15,000 groups. Converting and merging them in parallel
    // costs about four times the work of merging them on one thread: one thread wins at 2
    // threads, the parallel path at 16 (ClickBench Q14 at 16 threads merged 16 partials of
    // under 10,000 groups on one thread in 12.3 ms where the parallel path took 2 ms).
    const Block table = testing::makeTestTable(
        16 * 12 * 5'000, [](size_t row) { return (row * 7919) % 15'000; }, 23);
    const QueryStats at_2 = countAndSumByKey(table, 2, fixedMorselSettings());
    EXPECT_EQ(at_2.single_level_partials, 2u);
    EXPECT_EQ(at_2.merge_path, MergePath::kSerial);
    const QueryStats at_16 = countAndSumByKey(table, 16, fixedMorselSettings());
    EXPECT_EQ(at_16.single_level_partials, 16u);
    EXPECT_EQ(at_16.merge_path, MergePath::kParallelConvertAllSingle);
}

TEST(ParallelMerge, ASerialMergeWhoseResultOutgrowsTheSingleLevelTableGoesParallel)
{
    // Four workers, each with 15,000 groups of its own (single-level under a 20,000-group
    // threshold). The estimate assumes shared keys and picks one thread; after the first
    // source the result holds 30,000 groups, so the other two sources and the result are
    // converted in parallel (three tasks) and merged bucket by bucket.
    const Block table = testing::makeTestTable(
        4 * 12 * 5'000,
        [](size_t row) { return (row / 5'000) % 4 * 1'000'000 + (row * 7919) % 15'000; }, 29);
    AggregationSettings settings = fixedMorselSettings();
    settings.group_by_two_level_threshold = 20'000;
    const QueryStats stats = countAndSumByKey(table, 4, settings);
    EXPECT_EQ(stats.single_level_partials, 4u);
    EXPECT_EQ(stats.merge_path, MergePath::kSerialThenParallel);
    EXPECT_EQ(stats.phase(QueryPhase::kConvert).tasks, 3u);
    // The grown result and the two sources left are routed to the buckets, not converted.
    EXPECT_EQ(stats.routed_partials, 3u);
    EXPECT_EQ(stats.phase(QueryPhase::kMerge).tasks, 1u + kTwoLevelBuckets);
}

TEST(ParallelMerge, RoutedGroupsSizeEachTargetBucketOnce)
{
    // Sixteen single-level partials of 15,000 groups of their own each: the convert tasks
    // route their groups to the buckets, and each bucket task sizes the target bucket once
    // from the sources' sketches (~940 groups per bucket) before inserting them. Growing it
    // source by source instead would take about four resizes per bucket.
    constexpr size_t kWorkers = 16;
    const Block table = testing::makeTestTable(
        kWorkers * 12 * 5'000,
        [](size_t row) { return (row / 5'000) % kWorkers * 1'000'000 + (row * 7919) % 15'000; },
        31);
    const QueryStats stats = countAndSumByKey(table, kWorkers, fixedMorselSettings());
    EXPECT_EQ(stats.merge_path, MergePath::kParallelConvertAllSingle);
    EXPECT_EQ(stats.routed_partials, kWorkers);
    EXPECT_EQ(stats.phase(QueryPhase::kConvert).tasks, kWorkers);
    // The partials' single-level growths, one sizing per target bucket, and a growth where
    // the estimate fell short.
    EXPECT_LT(stats.profile_events[ProfileEvent::HashTableResizes], 3 * kTwoLevelBuckets)
        << stats.toString();
}

/// Rows of the routing tests: 300,000 groups of two rows each.
constexpr size_t kRoutedRows = 600'000;

/// kRoutedRows rows of 300,000 keys, the first 300,000 rows each a new one.
Block routedRowsTable(uint64_t seed)
{
    return testing::makeTestTable(
        kRoutedRows, [](size_t row) { return (row * 2654435761u) % 300'000; }, seed);
}

/// Settings of the routing tests: the table turns two-level (or routes) past 10,000 groups.
AggregationSettings routingSettings()
{
    AggregationSettings settings;
    settings.group_by_two_level_threshold = 10'000;
    return settings;
}

/// count and sum by key over kRoutedRows rows on one thread, the table turning two-level at
/// 10,000 groups; checks the result against the reference and returns the query's stats.
QueryStats aggregateRoutedRows(size_t morsel_rows, uint64_t seed)
{
    const Block table = routedRowsTable(seed);
    AggregationSettings settings = routingSettings();
    settings.morsel_rows = morsel_rows;
    // A sole worker keeps one table over small inputs; these tests are of routing.
    settings.sole_worker_single_level_rows = 0;
    return countAndSumByKey(table, 1, settings);
}

TEST(ParallelMerge, ASoleWorkerKeepsOneTableOverASmallInput)
{
    // 600,000 rows, at most 2 Mi: one thread keeps its table single-level past the group
    // threshold (fixed-width keys) while its groups stay within their own bound, and the same
    // rows with the rows' bound below them are routed.
    const Block table = routedRowsTable(23);
    AggregationSettings settings = routingSettings();
    settings.sole_worker_single_level_max_groups = 300'000;
    const QueryStats one_table = countAndSumByKey(table, 1, settings);
    EXPECT_EQ(one_table.two_level_partials, 0u);
    EXPECT_EQ(one_table.partitioned_rows, 0u);
    settings.sole_worker_single_level_rows = kRoutedRows - 1;
    const QueryStats routed = countAndSumByKey(table, 1, settings);
    EXPECT_EQ(routed.two_level_partials, 1u);
    EXPECT_GT(routed.partitioned_rows, kRoutedRows / 2);
}

/// `rows` rows of a String key `k_str` (key_of(row)) and a value `v_u32`.
Block stringKeyTable(size_t rows, const std::function<std::string(size_t)>& key_of)
{
    Block block;
    block.columns.push_back({"k_str", Column(TypeId::String)});
    block.columns.push_back({"v_u32", Column(TypeId::UInt32)});
    for (size_t row = 0; row < rows; ++row)
    {
        block.columns[0].column.appendString(key_of(row));
        block.columns[1].column.append(static_cast<uint32_t>(row % 1000));
    }
    return block;
}

TEST(ParallelMerge, ASoleWorkerKeepsOneStringTableWhileItsKeysAreShortAndProjectFew)
{
    // 600,000 rows drawn from 100,000 keys, the table's threshold 10,000 groups: short keys
    // (inline in the string table) stay in one table; the same keys made long (compared in
    // the arena), or 600,000 keys each new (projected past twice the groups' bound), turn
    // two-level as on several threads.
    constexpr size_t kRows = 600'000;
    std::mt19937_64 random(47);
    std::uniform_int_distribution<size_t> key(0, 99'999);
    std::vector<size_t> drawn(kRows);
    for (size_t& k : drawn)
    {
        k = key(random);
    }
    const AggregationSettings settings = routingSettings();
    const QueryStats short_keys = countAndSumByKey(
        stringKeyTable(kRows, [&](size_t row) { return std::to_string(drawn[row]); }), 1, settings,
        "k_str");
    EXPECT_EQ(short_keys.two_level_partials, 0u);
    EXPECT_EQ(short_keys.partitioned_rows, 0u);
    const std::string long_prefix(30, 'x');
    const QueryStats long_keys = countAndSumByKey(
        stringKeyTable(kRows, [&](size_t row) { return long_prefix + std::to_string(drawn[row]); }),
        1, settings, "k_str");
    EXPECT_EQ(long_keys.two_level_partials, 1u);
    const QueryStats new_keys =
        countAndSumByKey(stringKeyTable(kRows, [](size_t row) { return std::to_string(row); }), 1,
                         settings, "k_str");
    EXPECT_EQ(new_keys.two_level_partials, 1u);
}

TEST(ParallelMerge, ASoleWorkersTableOfMostlyNewKeysRoutesItsGroupsAtTheBound)
{
    // 300,000 groups, the first 300,000 rows each a new key: past
    // sole_worker_single_level_max_groups the one table's groups are routed to the buckets and
    // the rows after them partitioned; the bucket merge takes both.
    const Block table = routedRowsTable(29);
    AggregationSettings settings = routingSettings();
    settings.sole_worker_single_level_max_groups = 50'000;
    const QueryStats routed = countAndSumByKey(table, 1, settings);
    EXPECT_EQ(routed.two_level_partials, 1u);
    EXPECT_EQ(routed.routed_partials, 1u);
    EXPECT_EQ(routed.merge_path, MergePath::kParallelTwoLevel);
    EXPECT_GT(routed.partitioned_rows, kRoutedRows / 2);

    // A bound the last batch crosses leaves no row to partition: the routed groups alone.
    const Block unique = testing::makeTestTable(
        100'000, [](size_t row) { return row; }, 31);
    settings.sole_worker_single_level_max_groups = 99'999;
    const QueryStats last = countAndSumByKey(unique, 1, settings);
    EXPECT_EQ(last.routed_partials, 1u);
    EXPECT_EQ(last.partitioned_rows, 0u);

    // Keys that repeat (two rows each here, the bound met past the 300,000th row) stay in the
    // one table.
    settings.sole_worker_single_level_max_groups = 299'999;
    const Block repeated = testing::makeTestTable(
        kRoutedRows, [](size_t row) { return row / 2; }, 37);
    const QueryStats repeating = countAndSumByKey(repeated, 1, settings);
    EXPECT_EQ(repeating.routed_partials, 0u);
    EXPECT_EQ(repeating.two_level_partials, 0u);

    // count(DISTINCT) states routed so are merged, and destroyed, once.
    settings.sole_worker_single_level_max_groups = 50'000;
    const std::vector<testing::AggregateSpec> specs = {{"uniqExact", "v_u32"}, {"count", ""}};
    const BlockView input = BlockView::of(table);
    Aggregator aggregator({"k_u64"}, {{"uniqExact", {"v_u32"}, "a0"}, {"count", {}, "a1"}},
                          settings);
    QueryContext context(1);
    EXPECT_EQ(testing::compareWithReference(aggregator.execute(input, context), 1, specs,
                                            testing::referenceAggregate(input, {"k_u64"}, specs)),
              "");
    EXPECT_EQ(context.stats().routed_partials, 1u);
}

TEST(ParallelMerge, RoutedRowsSizeEachBucketTableOnce)
{
    // The table turns two-level at 10,000 groups (~40 per bucket), and the next rows are routed
    // to the buckets. The bucket task sizes its table once, from the routed rows' estimated
    // distinct keys (~1,170 per bucket); growing instead would take 5 more resizes per bucket
    // (64 -> 2,048 cells).
    const QueryStats stats = aggregateRoutedRows(1000, 11);
    EXPECT_GT(stats.partitioned_rows, kRoutedRows * 9 / 10);
    // A few single-level growths, one reservation per bucket at the conversion, one sizing per
    // bucket before the routed rows, and a growth where the estimate fell short.
    EXPECT_LT(stats.profile_events[ProfileEvent::HashTableResizes], 3 * kTwoLevelBuckets)
        << stats.toString();
}

TEST(ParallelMerge, TheMorselThatTurnsTheTableTwoLevelRoutesItsRest)
{
    // Four morsels of 150,000 rows (a worker gets at least four): the table passes 10,000
    // groups within the first ~20,000 rows, and the rest of that first morsel is routed like
    // the three after it (which alone would be 75% of the rows).
    const QueryStats stats = aggregateRoutedRows(kRoutedRows, 17);
    EXPECT_EQ(stats.phase(QueryPhase::kPartial).tasks, 4u);
    EXPECT_GT(stats.partitioned_rows, kRoutedRows * 9 / 10);
}

TEST(ParallelMerge, ALoneCountRoutesTheSingleRowsOfBatchesOfRuns)
{
    // Every 8 rows: a run of six rows of key 0, then two keys of their own (150,000 in all), as
    // SearchPhrase's '' runs between phrases: a batch has 3 runs per 8 rows, so once the table
    // is two-level (past 10,000 groups) each batch is counted run by run, and its single rows
    // are routed to the buckets rather than looked up in the one table.
    const Block table = testing::makeTestTable(
        kRoutedRows, [](size_t row) { return row % 8 < 6 ? 0 : 1 + row / 8 * 2 + row % 8 - 6; },
        37);
    const BlockView input = BlockView::of(table);
    const std::vector<testing::AggregateSpec> specs = {{"count", ""}};
    for (const char* key : {"k_u64", "k_str", "k_i32"})
    {
        for (size_t threads : {1, 2, 64})
        {
            AggregationSettings settings = routingSettings();
            settings.max_threads = threads;
            settings.sole_worker_single_level_rows = 0;
            Aggregator aggregator({key}, {{"count", {}, "rows"}}, settings);
            QueryContext context(threads);
            const Block result = aggregator.execute(input, context);
            EXPECT_EQ(testing::compareWithReference(
                          result, 1, specs, testing::referenceAggregate(input, {key}, specs)),
                      "")
                << key << ", " << threads << " threads";
            if (threads == 1)
            {
                // The singles after the table turned two-level, and none of the runs' rows.
                const QueryStats stats = context.stats();
                EXPECT_GT(stats.partitioned_rows, kRoutedRows / 8) << key << stats.toString();
                EXPECT_LT(stats.partitioned_rows, kRoutedRows / 4) << key << stats.toString();
            }
        }
    }
}

TEST(ParallelMerge, LargeFixedWidthResultsAreFaultedInBeforeTheBucketsWriteThem)
{
    // 600,000 groups of key, count and sum (8 bytes each: 14.4 MB of result columns): the
    // finalize faults the columns' pages in with huge-page-aligned tasks, then the 256 bucket
    // tasks write their groups in place; the result equals the reference at any thread count.
    const Block table = testing::makeTestTable(
        1'200'000, [](size_t row) { return (row * 2654435761u) % 600'000; }, 19);
    for (size_t threads : {1, 7, 64})
    {
        AggregationSettings settings;
        settings.morsel_rows = 20'000;
        settings.group_by_two_level_threshold = 10'000;
        // The bucket tasks and at least one task per huge page of result columns (7 or more).
        const size_t finalize_tasks =
            countAndSumByKey(table, threads, settings).phase(QueryPhase::kFinalize).tasks;
        EXPECT_GE(finalize_tasks, kTwoLevelBuckets + 7) << threads << " threads";
        EXPECT_LE(finalize_tasks, 2 * kTwoLevelBuckets) << threads << " threads";
    }
}

TEST(ParallelMerge, DistinctValuesAreRoutedOnceTheSetIsTwoLevelAndHeadedPastTheBound)
{
    // 150,000 distinct values (zero among them) in 600,000 rows, each met once in the first
    // 150,000. Sets turn two-level at 5,000 values; a numeric set whose probe of the next
    // rows finds them new (population past route_min_values) routes further values to its
    // buckets, and the merge's bucket tasks insert them, also into a lone set (one thread).
    // Values drawn at random from 20,000 (below the bound) keep being inserted, as string
    // sets always are.
    const size_t rows = 600'000;
    const Block spread = testing::makeTestTable(
        rows, [](size_t row) { return (row * 7919) % 150'000; }, 13);
    const auto drawn_from_20k = [](size_t row)
    {
        uint64_t z = row * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        return (z ^ (z >> 27)) % 20'000;
    };
    const Block repeating = testing::makeTestTable(rows, drawn_from_20k, 17);
    for (const Block* table : {&spread, &repeating})
    {
        const std::vector<testing::AggregateSpec> specs = {{"uniqExact", "k_u64"},
                                                           {"uniqExact", "k_str"}};
        const testing::ReferenceResult expected =
            testing::referenceAggregate(BlockView::of(*table), {}, specs);
        for (size_t threads : {1, 4, 64})
        {
            for (bool route : {true, false})
            {
                AggregationSettings settings;
                settings.max_threads = threads;
                settings.morsel_rows = 10'000;
                settings.partition_high_cardinality = route;
                settings.distinct.two_level_threshold = 5'000;
                settings.distinct.route_min_values = 100'000;
                Aggregator aggregator(
                    {}, {{"uniqExact", {"k_u64"}, "numbers"}, {"uniqExact", {"k_str"}, "strings"}},
                    settings);
                QueryContext context(threads);
                const Block result = aggregator.execute(BlockView::of(*table), context);
                const std::string where = std::to_string(threads) + " threads, routing " +
                                          std::to_string(route) +
                                          (table == &spread ? ", spread" : ", repeating");
                EXPECT_EQ(testing::compareWithReference(result, 0, specs, expected), "") << where;
                const size_t partitioned = context.stats().partitioned_rows;
                if (route && table == &spread)
                {
                    // A worker inserts the rows of its first morsel until its set is
                    // two-level (a hash batch past 5,000 values), then probes 4,096 rows,
                    // all new, and routes everything after.
                    const size_t workers_used = std::min(threads, rows / settings.morsel_rows);
                    const size_t inserted_per_worker =
                        settings.distinct.two_level_threshold + kHashBatchRows + kRoutingProbeRows;
                    EXPECT_GE(partitioned, rows - workers_used * inserted_per_worker) << where;
                    EXPECT_LE(partitioned, rows) << where;
                }
                else
                {
                    EXPECT_EQ(partitioned, 0u) << where;
                }
            }
        }
    }
}

/// Distinct keys among the first `sample` and among all `rows` keys drawn uniformly from
/// `population`.
std::pair<size_t, size_t> drawKeys(std::mt19937_64& random, size_t population, size_t rows,
                                   size_t sample)
{
    std::uniform_int_distribution<uint64_t> key(0, population - 1);
    std::unordered_set<uint64_t> seen;
    size_t sample_groups = 0;
    for (size_t row = 0; row < rows; ++row)
    {
        seen.insert(key(random));
        if (row + 1 == sample)
        {
            sample_groups = seen.size();
        }
    }
    return {sample_groups, seen.size()};
}

TEST(NewKeysEstimate, AgreesWithDrawnKeysWhereTheAnswerIsClear)
{
    // Keys drawn uniformly from `population`: the sample's distinct count decides, and the
    // share's own distinct count (counted here) says whether the decision was right.
    std::mt19937_64 random(37);
    const size_t share = 60'000;
    const size_t sample = 4'096;
    for (size_t population : {1'000, 9'000, 15'000, 30'000, 60'000, 200'000, 10'000'000})
    {
        const auto [sample_groups, groups] = drawKeys(random, population, share, sample);
        const bool predicted = groupsWouldFillHalfTheShare(sample_groups, sample, share);
        const bool actual = 2 * groups > share;
        // Near the bound (share / 1.59 ~ 37,700 keys) a sample may go either way.
        if (population <= 15'000 || population >= 200'000)
        {
            EXPECT_EQ(predicted, actual) << population << " keys, " << groups << " in the share, "
                                         << sample_groups << " sampled";
        }
    }
}

TEST(NewKeysEstimate, ProjectsTheDistinctKeysOfDrawnRows)
{
    // Keys drawn uniformly from `population`: the first 20,000 rows' distinct count projects
    // that of 500,000 rows within 5%; a sample of distinct keys projects every row a key.
    std::mt19937_64 random(43);
    const size_t total = 500'000;
    const size_t sample = 20'000;
    for (size_t population : {5'000, 50'000, 200'000, 1'000'000})
    {
        const auto [sample_groups, groups] = drawKeys(random, population, total, sample);
        const double projected = projectedGroups(sample_groups, sample, total);
        EXPECT_NEAR(projected, static_cast<double>(groups), 0.05 * static_cast<double>(groups))
            << population << " keys, " << sample_groups << " sampled";
    }
    EXPECT_EQ(projectedGroups(1'000, 1'000, total), static_cast<double>(total));
}

TEST(NewKeysEstimate, ABoundOnTheProjectionAgreesWithProjecting)
{
    // ProjectedGroupsBound solves once what projectedGroups <= bound asks of every sample.
    const size_t total = 1'000'000;
    for (double bound : {50'000.0, 512'000.0, 2'000'000.0})
    {
        const ProjectedGroupsBound once(total, bound);
        for (size_t rows : {1'024, 65'536, 300'000})
        {
            for (size_t groups = 1; groups <= rows; groups += rows / 97 + 1)
            {
                const double projected = projectedGroups(groups, rows, total);
                // Within the bisection's precision of the bound either answer is right.
                if (std::abs(projected - bound) > 1e-6 * bound)
                {
                    EXPECT_EQ(once.holds(groups, rows), projected <= bound)
                        << bound << " bound, " << groups << " of " << rows << " rows";
                }
            }
            EXPECT_EQ(once.holds(rows, rows), static_cast<double>(total) <= bound);
        }
    }
}

TEST(NewKeysEstimate, PopulationFromTheShareOfNewKeysInAProbe)
{
    // Keys drawn uniformly from `population`: after `held` distinct keys, the new ones among
    // the next 4,096 rows estimate the population within 10%; a probe of new keys only says
    // it is beyond measure.
    std::mt19937_64 random(47);
    for (size_t population : {20'000, 150'000, 1'000'000})
    {
        std::uniform_int_distribution<uint64_t> key(0, population - 1);
        std::unordered_set<uint64_t> seen;
        while (seen.size() < population / 4)
        {
            seen.insert(key(random));
        }
        const size_t held_before = seen.size();
        const size_t probe = 4'096;
        for (size_t row = 0; row < probe; ++row)
        {
            seen.insert(key(random));
        }
        EXPECT_NEAR(distinctPopulation(held_before, seen.size() - held_before, probe),
                    static_cast<double>(population), 0.1 * static_cast<double>(population))
            << population;
    }
    EXPECT_EQ(distinctPopulation(5'000, 4'096, 4'096), std::numeric_limits<double>::infinity());
}

TEST(NewKeysEstimate, UnionOfHeldKeysAndRowsStillToCome)
{
    // Keys drawn uniformly from `population`: a table holding the distinct keys of the first
    // 40,000 rows takes 400,000 more, whose distinct keys are counted on their own. The
    // union is estimated within 5%, whether the rows bring back the held keys (small
    // populations: about their own count) or add to them (large: about the sum).
    std::mt19937_64 random(53);
    const size_t held_rows = 40'000;
    const size_t rows = 400'000;
    for (size_t population : {10'000, 100'000, 1'000'000, 100'000'000})
    {
        std::uniform_int_distribution<uint64_t> key(0, population - 1);
        std::unordered_set<uint64_t> held;
        std::unordered_set<uint64_t> routed;
        for (size_t row = 0; row < held_rows; ++row)
        {
            held.insert(key(random));
        }
        for (size_t row = 0; row < rows; ++row)
        {
            routed.insert(key(random));
        }
        std::unordered_set<uint64_t> both = held;
        both.insert(routed.begin(), routed.end());
        EXPECT_NEAR(expectedUnion(held.size(), routed.size(), rows),
                    static_cast<double>(both.size()), 0.05 * static_cast<double>(both.size()))
            << population << " keys, " << held.size() << " held, " << routed.size() << " routed";
    }
    // Never fewer than either side; distinct rows add every key.
    EXPECT_EQ(expectedUnion(500, 10, 10'000), 500.0);
    EXPECT_EQ(expectedUnion(500, 1'000, 1'000), 1'500.0);
    EXPECT_EQ(expectedUnion(500, 0, 0), 500.0);
}

TEST(ParallelMerge, WorkersPartitionNewStringKeysOnlyOverInputsOfManyRowsPerBucket)
{
    // Every key new, 16 workers: 960,000 rows in all (3,750 per bucket) are partitioned from
    // each worker's sample on, as fixed-width keys are; 96,000 (375 per bucket) are not, each
    // worker keeping its table of its keys.
    constexpr size_t kWorkers = 16;
    AggregationSettings settings = fixedMorselSettings();
    settings.partition_new_keys_rows = AggregationSettings{}.partition_new_keys_rows;
    for (const size_t rows : {size_t{960'000}, size_t{96'000}})
    {
        settings.morsel_rows = rows / kWorkers / 12;
        const Block unique =
            stringKeyTable(rows, [](size_t row) { return std::to_string(row * 2654435761u); });
        const QueryStats stats = countAndSumByKey(unique, kWorkers, settings, "k_str");
        if (rows >= kMinRowsPerBucketOfStrings * kPartitionBuckets)
        {
            EXPECT_GT(stats.partitioned_rows, rows / 2) << rows << " rows";
        }
        else
        {
            EXPECT_EQ(stats.partitioned_rows, 0u) << rows << " rows";
        }
    }
}

TEST(ParallelMerge, WorkersKeepTablesOfNewFixedWidthKeysOverInputsOfFewRowsPerBucket)
{
    // Every key new, 2 workers, 160,000 rows in all (625 per bucket): each worker's share
    // leaves more than 128 rows per bucket past its sample, yet none is partitioned, each
    // worker keeping its table (of fewer groups than group_by_two_level_threshold, past which
    // it would partition anyway). Over more rows they partition from their samples on, as
    // WorkersWhoseShareWillBeNewKeysPartitionFromTheirFirstRows shows.
    constexpr size_t kWorkers = 2;
    constexpr size_t kRows = 160'000;
    AggregationSettings settings = fixedMorselSettings();
    settings.partition_new_keys_rows = AggregationSettings{}.partition_new_keys_rows;
    settings.morsel_rows = kRows / kWorkers / 12;
    const Block unique = testing::makeTestTable(
        kRows, [](size_t row) { return row * 2654435761u; }, 59);
    const QueryStats stats = countAndSumByKey(unique, kWorkers, settings);
    EXPECT_EQ(stats.partitioned_rows, 0u);
    EXPECT_EQ(stats.single_level_partials, kWorkers);
}

TEST(ParallelMerge, WorkersWhoseTablesWouldTurnTwoLevelPartitionFromTheirSamples)
{
    // 2 workers of 300,000 rows, keys drawn at random from 100,000: each share holds about
    // 95,000 of them, three rows each, so no worker's share will be mostly new keys; but each
    // worker's table would pass a group_by_two_level_threshold of 50,000 and turn two-level
    // within its share, so it partitions from its sample on. Under a threshold its share
    // stays within, it keeps its table.
    constexpr size_t kWorkers = 2;
    constexpr size_t kRows = 600'000;
    const auto drawn = [](size_t row)
    {
        uint64_t z = row + 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return (z ^ (z >> 31)) % 100'000;
    };
    const Block table = testing::makeTestTable(kRows, drawn, 61);
    AggregationSettings settings = fixedMorselSettings();
    settings.partition_new_keys_rows = AggregationSettings{}.partition_new_keys_rows;
    settings.group_by_two_level_threshold = 50'000;
    const QueryStats partitioned = countAndSumByKey(table, kWorkers, settings);
    EXPECT_EQ(partitioned.routed_partials, kWorkers);
    EXPECT_EQ(partitioned.partitioned_rows, kRows - kWorkers * 4'096);
    settings.group_by_two_level_threshold = 200'000;
    const QueryStats kept = countAndSumByKey(table, kWorkers, settings);
    EXPECT_EQ(kept.partitioned_rows, 0u);
    EXPECT_EQ(kept.single_level_partials, kWorkers);
}

TEST(ParallelMerge, WorkersWhoseShareWillBeNewKeysPartitionFromTheirFirstRows)
{
    // 16 workers of 60,000 rows. Every key new: each worker samples its first 4,096 rows,
    // routes their groups and partitions the rest, so the merge inserts no worker's table
    // again. Keys that repeat four times within each worker's rows keep the tables.
    constexpr size_t kWorkers = 16;
    constexpr size_t kRows = kWorkers * 12 * 5'000;
    const Block unique = testing::makeTestTable(
        kRows, [](size_t row) { return row * 2654435761u; }, 41);
    AggregationSettings settings = fixedMorselSettings();
    settings.partition_new_keys_rows = AggregationSettings{}.partition_new_keys_rows;
    const QueryStats partitioned = countAndSumByKey(unique, kWorkers, settings);
    EXPECT_EQ(partitioned.routed_partials, kWorkers);
    EXPECT_EQ(partitioned.partitioned_rows, kRows - kWorkers * 4'096);
    EXPECT_EQ(countAndSumByKey(unique, kWorkers, fixedMorselSettings()).partitioned_rows, 0u);

    // Keys drawn at random (splitmix64 of the row) from each worker's own 15,000.
    const auto drawn = [](size_t row)
    {
        uint64_t z = row + 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return (row / 5'000) % kWorkers * 1'000'000 + (z ^ (z >> 31)) % 15'000;
    };
    const Block repeating = testing::makeTestTable(kRows, drawn, 43);
    EXPECT_EQ(countAndSumByKey(repeating, kWorkers, settings).partitioned_rows, 0u);

    // count(DISTINCT) without keys: a worker's set of new values routes them all, from the
    // sample on, one of repeating values keeps them.
    for (const auto& [table, routed] :
         {std::pair{&unique, kRows}, std::pair{&repeating, size_t{0}}})
    {
        AggregationSettings distinct = settings;
        distinct.max_threads = kWorkers;
        Aggregator aggregator({}, {{"uniqExact", {"k_u64"}, "distinct"}}, distinct);
        QueryContext context(kWorkers);
        const Block result = aggregator.execute(BlockView::of(*table), context);
        const std::vector<testing::AggregateSpec> specs = {{"uniqExact", "k_u64"}};
        EXPECT_EQ(
            testing::compareWithReference(
                result, 0, specs, testing::referenceAggregate(BlockView::of(*table), {}, specs)),
            "");
        EXPECT_EQ(context.stats().partitioned_rows, routed);
    }

    // String keys, which live in the partial's arena, cannot be routed: the worker converts
    // its sample's groups to two levels and partitions the rest just the same.
    const QueryStats strings = countAndSumByKey(unique, kWorkers, settings, "k_str");
    EXPECT_EQ(strings.two_level_partials, kWorkers);
    EXPECT_EQ(strings.partitioned_rows, kRows - kWorkers * 4'096);
    EXPECT_EQ(countAndSumByKey(repeating, kWorkers, settings, "k_str").partitioned_rows, 0u);
}

}  // namespace
}  // namespace granary
