#include "engine/aggregation/aggregator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "engine/aggregation/key_methods.h"
#include "engine/common/exception.h"
#include "merge_path_shapes.h"
#include "reference_aggregator.h"
#include "test_table.h"

namespace granary
{
namespace
{

using testing::AggregateSpec;

/// Every aggregate function, over argument types that exercise each state kind.
const std::vector<AggregateSpec> kAllAggregates = {
    {"count", ""},     {"count", "v_u32"}, {"sum", "v_u32"},       {"sum", "v_i64"},
    {"sum", "v_f64"},  {"sum", "v_i8"},    {"avg", "v_big"},       {"avg", "v_i64"},
    {"min", "v_i64"},  {"max", "v_f64"},   {"min", "v_str"},       {"max", "v_str"},
    {"any", "v_u32"},  {"any", "v_str"},   {"uniqExact", "v_u32"}, {"uniqExact", "v_str"},
    {"min", "k_date"},
};

/// Key sets covering every key method.
const std::vector<std::vector<std::string>> kKeySets = {
    {"k_u8"},
    {"k_i8"},
    {"k_u16"},
    {"k_date"},
    {"k_u32"},
    {"k_i32"},
    {"k_f32"},
    {"k_dt"},
    {"k_u64"},
    {"k_i64"},
    {"k_f64"},
    {"k_str"},
    {"k_u32", "k_u16"},
    {"k_u64", "k_i32"},
    {"k_u64", "k_i64", "k_u32"},
    {"k_str", "k_u32"},
    {"k_u64", "k_str"},
    {"k_u8", "k_str", "k_f64"},
    {"k_date", "k_str", "k_u16", "k_i64"},
};

constexpr size_t kMorselRows = testing::kShapeMorselRows;
constexpr size_t kRows = testing::kShapeRows;

std::vector<AggregateDescription> describe(const std::vector<AggregateSpec>& specs)
{
    std::vector<AggregateDescription> descriptions;
    for (size_t i = 0; i < specs.size(); ++i)
    {
        AggregateDescription description{specs[i].function, {}, "a" + std::to_string(i)};
        if (!specs[i].argument.empty())
        {
            description.arguments.push_back(specs[i].argument);
        }
        descriptions.push_back(description);
    }
    return descriptions;
}

bool isFixedKey(const std::vector<std::string>& keys)
{
    return keys.size() == 1 &&
           (keys[0] == "k_u8" || keys[0] == "k_i8" || keys[0] == "k_u16" || keys[0] == "k_date");
}

/// The key method the aggregator picks for the test table's key columns `keys`.
KeyMethodKind methodOf(const std::vector<std::string>& keys)
{
    std::vector<DataType> types;
    for (const auto& name : keys)
    {
        types.push_back(name == "k_u8"                        ? TypeId::UInt8
                        : name == "k_i8"                      ? TypeId::Int8
                        : name == "k_u16" || name == "k_date" ? TypeId::UInt16
                        : name == "k_u32" || name == "k_i32" || name == "k_f32" || name == "k_dt"
                            ? TypeId::UInt32
                        : name == "k_str" ? TypeId::String
                                          : TypeId::UInt64);
    }
    return chooseKeyMethod(types);
}

bool firstOfItsMethod(const std::vector<std::string>& keys)
{
    std::vector<KeyMethodKind> seen;
    for (const auto& candidate : kKeySets)
    {
        const KeyMethodKind kind = methodOf(candidate);
        const bool first = std::find(seen.begin(), seen.end(), kind) == seen.end();
        seen.push_back(kind);
        if (candidate == keys)
        {
            return first;
        }
    }
    return false;
}

struct Shape
{
    std::string name;
    std::function<uint64_t(size_t)> group_of;
    AggregationSettings settings;
    /// Expected path for tables that can be two-level, at >= min_threads threads.
    MergePath expected_path;
    size_t min_threads;
    /// Above this many threads the partials may be too small for the expected path.
    size_t max_threads = SIZE_MAX;
};

std::vector<Shape> shapes()
{
    std::vector<Shape> result;
    {
        // Few groups: merging on one thread beats any parallel plan.
        Shape shape{"few_groups", [](size_t row) { return (row * 7919) % 40; },
                    testing::mergePathSettings(), MergePath::kSerial, 2};
        result.push_back(shape);
    }
    {
        // Many groups, single-level partials, large on average: all converted in parallel.
        Shape shape{"all_single_large", [](size_t row) { return (row * 7919) % 15000; },
                    testing::mergePathSettings(), MergePath::kParallelConvertAllSingle, 2};
        result.push_back(shape);
    }
    {
        // A tiny two-level threshold: every partial is two-level. Twenty rows per group: a
        // sole worker's routed rows fill its buffers (kRoutedRowsPerKey).
        Shape shape{"all_two_level", [](size_t row) { return (row * 7919) % 1500; },
                    testing::mergePathSettings(), MergePath::kParallelTwoLevel, 2};
        shape.settings.group_by_two_level_threshold = 20;
        result.push_back(shape);
    }
    {
        // The same without partitioning: every row goes through its worker's two-level table.
        Shape shape{"all_two_level_unpartitioned", [](size_t row) { return (row * 7919) % 1500; },
                    testing::mergePathSettings(), MergePath::kParallelTwoLevel, 2};
        shape.settings.group_by_two_level_threshold = 20;
        shape.settings.partition_high_cardinality = false;
        result.push_back(shape);
    }
    {
        // The first 16 morsels are all new groups (their workers go two-level), the rest
        // repeat 30 groups (their workers stay single-level): the mixed case of the seed's Q5.
        Shape shape{"mixed_levels",
                    [](size_t row) { return row < 16 * kMorselRows ? 1000 + row : row % 30; },
                    testing::mergePathSettings(), MergePath::kParallelConvertMixed, 17};
        shape.settings.group_by_two_level_threshold = kMorselRows / 2;
        shape.settings.merge_cost.min_average_size = 1'000'000;
        result.push_back(shape);
    }
    {
        // Runs of equal keys in the first half (a table lookup per run; runs of 40, added run
        // by run, then runs of 2 and 1 rows in turn, their rows added through a state pointer
        // each), none in the second (a lookup per row), in single-level partials...
        auto runs_then_none = [](size_t groups)
        {
            return [groups](size_t row)
            {
                const size_t key = row < kRows / 4 ? row / 40 : row < kRows / 2 ? row * 2 / 3 : row;
                return (key * 7919) % groups;
            };
        };
        // (at 256 threads, a partial of one morsel of runs has too few groups to go parallel)
        result.push_back({"runs_single_level", runs_then_none(15000), testing::mergePathSettings(),
                          MergePath::kParallelConvertAllSingle, 2, 64});
        // ...and in two-level ones, which take batches of runs in place and route the others.
        Shape shape{"runs_two_level",
                    runs_then_none(1500),
                    testing::mergePathSettings(),
                    MergePath::kParallelTwoLevel,
                    2,
                    64};
        shape.settings.group_by_two_level_threshold = 20;
        result.push_back(shape);
    }
    return result;
}

/// The thread counts of every run: 1, a few, and heavily oversubscribed (the machine has 2
/// cores) so that hundreds of partials exercise the many-partial merge paths.
const std::vector<size_t> kThreadCounts = {1, 2, 7, 64, 256};

/// Key sets a test runs: all, or the first of each key method (functions whose states do not
/// depend on the key's type).
enum class KeySets
{
    kEvery,
    kOnePerMethod,
};

/// `aggregates` by every key set, on every shape, at every thread count, against the reference,
/// with the merge path each shape was made for.
void matchReferenceOnEveryShape(const std::vector<AggregateSpec>& aggregates,
                                KeySets key_sets = KeySets::kEvery)
{
    for (const Shape& shape : shapes())
    {
        const Block table = testing::makeTestTable(kRows, shape.group_of, 17);
        const BlockView input = BlockView::of(table);
        for (const auto& keys : kKeySets)
        {
            if (key_sets == KeySets::kOnePerMethod && !firstOfItsMethod(keys))
            {
                continue;
            }
            const auto reference = testing::referenceAggregate(input, keys, aggregates);
            for (size_t threads : kThreadCounts)
            {
                // Oversubscribed runs cover each key method once (the first key set of its
                // kind); the other key sets of a method differ only in the column type.
                if (threads > 8 && !firstOfItsMethod(keys))
                {
                    continue;
                }
                SCOPED_TRACE(shape.name + " keys " + keys[0] + (keys.size() > 1 ? ",..." : "") +
                             " threads " + std::to_string(threads));
                AggregationSettings settings = shape.settings;
                settings.max_threads = threads;
                Aggregator aggregator(keys, describe(aggregates), settings);
                QueryContext context(threads);
                const Block result = aggregator.execute(input, context);
                EXPECT_EQ(testing::compareWithReference(result, keys.size(), aggregates, reference),
                          "");

                // The stats name the path, and it is the one the data was shaped for.
                const QueryStats& stats = context.stats();
                EXPECT_EQ(stats.partials, std::min(threads, kRows / kMorselRows));
                EXPECT_EQ(stats.single_level_partials + stats.two_level_partials, stats.partials);
                // A worker partitions the morsels after the one that made its table two-level
                // (direct-mapped tables never are).
                const bool partitionable = !isFixedKey(keys);
                if (!partitionable || !shape.settings.partition_high_cardinality ||
                    shape.settings.group_by_two_level_threshold >= kRows)
                {
                    EXPECT_EQ(stats.partitioned_rows, 0u);
                }
                else if (shape.name == "all_two_level")
                {
                    // Every thread count leaves some worker with two morsels or more.
                    EXPECT_GT(stats.partitioned_rows, 0u);
                }
                else if (shape.name == "runs_two_level")
                {
                    // Morsels of long runs go into the tables in place: at most the other
                    // three quarters are routed (runs of 1.5 rows are too short for it, and
                    // 16 batches of them end the partial's looking for runs).
                    EXPECT_LE(stats.partitioned_rows, kRows * 3 / 4);
                }
                // A query's only worker aggregates its routed rows itself once they number
                // kRoutedRowsPerKey per key (30,000 rows over 1,500 groups); with more
                // workers, the bucket tasks aggregate them all.
                EXPECT_LE(stats.partitioned_rows_aggregated_early, stats.partitioned_rows);
                if (threads > 1)
                {
                    EXPECT_EQ(stats.partitioned_rows_aggregated_early, 0u);
                }
                else if (partitionable && shape.name == "all_two_level")
                {
                    EXPECT_GT(stats.partitioned_rows_aggregated_early, 0u);
                }
                if (threads == 1)
                {
                    EXPECT_EQ(stats.merge_path, stats.partitioned_rows > 0
                                                    ? MergePath::kParallelTwoLevel
                                                    : MergePath::kNone);
                }
                else if (isFixedKey(keys))
                {
                    EXPECT_TRUE(stats.merge_path == MergePath::kParallelFixedRanges ||
                                stats.merge_path == MergePath::kSerial)
                        << mergePathName(stats.merge_path);
                }
                else if (threads >= shape.min_threads && threads <= shape.max_threads)
                {
                    EXPECT_EQ(stats.merge_path, shape.expected_path)
                        << mergePathName(stats.merge_path);
                }
                // Single-level partials of fixed-width keys reach the bucket merge as routed
                // groups; string and serialized keys are converted.
                const KeyMethodKind method = methodOf(keys);
                const bool routes =
                    method != KeyMethodKind::kString && method != KeyMethodKind::kSerialized;
                const bool converts = stats.merge_path == MergePath::kParallelConvertAllSingle ||
                                      stats.merge_path == MergePath::kParallelConvertMixed;
                if (stats.merge_path == MergePath::kSerialThenParallel)
                {
                    EXPECT_EQ(routes, stats.routed_partials > 0);
                }
                else
                {
                    EXPECT_EQ(stats.routed_partials,
                              routes && converts ? stats.single_level_partials : 0u);
                }
            }
        }
    }
}

TEST(Aggregator, MatchesTheReferenceForEveryKeyKindFunctionShapeAndThreadCount)
{
    matchReferenceOnEveryShape(kAllAggregates);
}

/// fDistinct is f over the distinct values of its argument (uniqExact's set, finalized through f).
TEST(Aggregator, DistinctCombinatorMatchesTheReference)
{
    matchReferenceOnEveryShape({{"sumDistinct", "v_u32"},
                                {"avgDistinct", "v_f64"},
                                {"minDistinct", "v_str"},
                                {"countDistinct", "v_u32"}},
                               KeySets::kOnePerMethod);
}

/// A lone count(*) or count(x) keeps each group's count in its table cell and counts each row
/// as its key is found, in the emplace pass itself (inline_count.h).
TEST(Aggregator, CountAloneMatchesTheReferenceForEveryKeyKindShapeAndThreadCount)
{
    matchReferenceOnEveryShape({{"count", ""}});
    matchReferenceOnEveryShape({{"count", "v_u32"}});
}

/// Integer keys are read in place from the caller's column, but only where the column is an
/// aligned array of them: a view at an odd address (a caller's packed buffer) is copied.
TEST(Aggregator, KeysAtUnalignedAddressesAreReadThroughACopy)
{
    const Block table = testing::makeTestTable(
        kRows, [](size_t row) { return (row * 7919) % 15000; }, 5);
    const BlockView aligned = BlockView::of(table);
    const std::vector<AggregateSpec> specs = {{"count", ""}, {"sum", "v_u32"}};
    for (const char* key : {"k_u64", "k_u32", "k_u16"})
    {
        SCOPED_TRACE(key);
        const ColumnView column = *aligned.find(key);
        const size_t width = fixedWidth(column.type);
        // One byte past an aligned buffer: no key is at a multiple of its width.
        std::vector<char> bytes(column.rows * width + 1);
        std::memcpy(bytes.data() + 1, column.data, column.rows * width);
        BlockView unaligned;
        unaligned.add(key,
                      ColumnView{column.type, column.rows, bytes.data() + 1, nullptr, nullptr});
        unaligned.add("v_u32", *aligned.find("v_u32"));
        for (size_t threads : {1, 7})
        {
            AggregationSettings settings = testing::mergePathSettings();
            settings.max_threads = threads;
            QueryContext context(threads);
            const Block result =
                Aggregator({key}, describe(specs), settings).execute(unaligned, context);
            EXPECT_EQ(testing::compareWithReference(
                          result, 1, specs, testing::referenceAggregate(aligned, {key}, specs)),
                      "")
                << threads << " threads";
        }
    }
}

/// Serialized keys give back the rows' values, and rows differ exactly where their keys do:
/// a string before the last carries its length, the last one is the key's rest.
TEST(Aggregator, SerializedKeysRoundTripAndTellRowsApart)
{
    Column first(TypeId::String);
    Column number(TypeId::UInt64);
    Column last(TypeId::String);
    const std::vector<std::string> texts = {"", "a", "ab", "b", std::string("\0b", 2), "abc"};
    for (const std::string& a : texts)
    {
        for (const uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{1} << 40})
        {
            for (const std::string& b : texts)
            {
                first.appendString(a);
                number.append(n);
                last.appendString(b);
            }
        }
    }
    const size_t rows = first.size();
    const std::vector<ColumnView> views = {first.view(), number.view(), last.view()};
    SerializedKeyMethod::Extractor extractor(views);
    // From the second row on: extraction starts anywhere in the columns.
    std::vector<std::string_view> keys(rows - 1);
    extractor.extract(1, rows - 1, keys.data());
    std::vector<Column> back;
    back.emplace_back(TypeId::String);
    back.emplace_back(TypeId::UInt64);
    back.emplace_back(TypeId::String);
    SerializedKeyMethod::appendKeys(keys.data(), keys.size(), back);
    for (size_t i = 0; i + 1 < rows; ++i)
    {
        EXPECT_EQ(back[0].stringAt(i), first.stringAt(i + 1)) << i;
        EXPECT_EQ(back[1].view().values<uint64_t>()[i], number.view().values<uint64_t>()[i + 1])
            << i;
        EXPECT_EQ(back[2].stringAt(i), last.stringAt(i + 1)) << i;
        for (size_t j = 0; j < i; ++j)
        {
            // Every row of the grid is distinct: so must every key be.
            ASSERT_NE(keys[i], keys[j]) << i << " " << j;
        }
    }
    const std::vector<ColumnView> number_then_string = {number.view(), last.view()};
    SerializedKeyMethod::Extractor short_keys(number_then_string);
    std::string_view empty_last;
    short_keys.extract(0, 1, &empty_last);
    EXPECT_EQ(empty_last.size(), sizeof(uint64_t)) << "(UInt64, '') should take 8 bytes";
}

TEST(Aggregator, WithoutKeysAndEmptyInput)
{
    const Block table = testing::makeTestTable(
        0, [](size_t) { return 0; }, 1);
    const BlockView input = BlockView::of(table);
    const std::vector<AggregateSpec> specs = {
        {"count", ""}, {"sum", "v_u32"}, {"avg", "v_i64"}, {"uniqExact", "v_str"}};
    Aggregator aggregator({}, describe(specs));
    QueryContext context(2);
    const Block result = aggregator.execute(input, context);
    EXPECT_EQ(testing::compareWithReference(result, 0, specs,
                                            testing::referenceAggregate(input, {}, specs)),
              "");
    // GROUP BY over no rows: no groups.
    Aggregator grouped({"k_u64"}, describe(specs));
    QueryContext grouped_context(2);
    EXPECT_EQ(grouped.execute(input, grouped_context).rows(), 0u);
}

/// A masked sum that answers NULL without values (what SQL makes of a Nullable argument, and a
/// host of its NULLs) is NULL for groups whose mask keeps no row on every finalize path:
/// fragments concatenated (single-level, or two-level through bucket fragments) or, without
/// NULLs, written in place. sumIf over the same rows answers 0 there, as in ClickHouse.
TEST(Aggregator, MaskedGroupsWithoutAKeptRowAreNullOnEveryPath)
{
    constexpr size_t kGroups = 1500;
    Block table;
    table.columns.push_back({"key", Column(TypeId::UInt32)});
    table.columns.push_back({"value", Column(TypeId::Int64)});
    table.columns.push_back({"keep", Column(TypeId::UInt8)});
    std::vector<int64_t> sums(kGroups, 0);
    for (size_t row = 0; row < kRows; ++row)
    {
        const uint32_t group = static_cast<uint32_t>((row * 7919) % kGroups);
        const bool keep = group % 4 != 0 && (row / kGroups) % 3 != 0;
        table.columns[0].column.append<uint32_t>(group);
        table.columns[1].column.append<int64_t>(static_cast<int64_t>(row % 1000));
        table.columns[2].column.append<uint8_t>(keep ? 1 : 0);
        sums[group] += keep ? static_cast<int64_t>(row % 1000) : 0;
    }
    for (const size_t threshold : {size_t{1'000'000}, size_t{20}})
    {
        for (const size_t threads : {1, 2, 7})
        {
            SCOPED_TRACE("threshold " + std::to_string(threshold) + ", threads " +
                         std::to_string(threads));
            AggregationSettings settings = testing::mergePathSettings();
            settings.group_by_two_level_threshold = threshold;
            settings.max_threads = threads;
            QueryContext context(threads);
            const Block result = Aggregator({"key"},
                                            {{.function = "sum",
                                              .arguments = {"value"},
                                              .result_name = "s",
                                              .mask = "keep",
                                              .null_without_values = true},
                                             {"sumIf", {"value", "keep"}, "s_if"}},
                                            settings)
                                     .execute(BlockView::of(table), context);
            ASSERT_EQ(result.rows(), kGroups);
            const Column& keys = result.columns[0].column;
            const Column& values = result.columns[1].column;
            const Column& if_values = result.columns[2].column;
            for (size_t row = 0; row < result.rows(); ++row)
            {
                const uint32_t group = keys.valueAt<uint32_t>(row);
                EXPECT_FALSE(if_values.isNull(row)) << "group " << group;
                EXPECT_EQ(if_values.valueAt<int64_t>(row), sums[group]) << "group " << group;
                EXPECT_EQ(values.isNull(row), group % 4 == 0) << "group " << group;
                if (!values.isNull(row))
                {
                    EXPECT_EQ(values.valueAt<int64_t>(row), sums[group]) << "group " << group;
                }
            }
        }
    }
}

TEST(Aggregator, UnknownColumnsAndBadTypesNameTheCulprit)
{
    const Block table = testing::makeTestTable(
        10, [](size_t row) { return row; }, 1);
    const BlockView input = BlockView::of(table);
    QueryContext context(1);
    try
    {
        Aggregator({"nope"}, describe({{"count", ""}})).execute(input, context);
        FAIL() << "expected an exception";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kUnknownColumn);
        EXPECT_NE(std::string(e.what()).find("'nope'"), std::string::npos);
    }
    try
    {
        Aggregator({"k_u8"}, describe({{"sum", "v_str"}})).execute(input, context);
        FAIL() << "expected an exception";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kTypeMismatch);
        EXPECT_NE(std::string(e.what()).find("'v_str'"), std::string::npos);
    }
    try
    {
        Aggregator({"k_u8"}, describe({{"noSuchFunction", "v_u32"}})).execute(input, context);
        FAIL() << "expected an exception";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kUnknownFunction);
    }
}

}  // namespace
}  // namespace granary
