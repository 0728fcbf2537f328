#include "engine/aggregation/functions/uniq_sketch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/aggregator.h"
#include "engine/common/exception.h"
#include "reference_aggregator.h"
#include "test_table.h"

namespace granary
{
namespace
{

/// uniq's precision and what it implies (the reference entry's numbers).
constexpr uint8_t kUniqPrecision = 12;
constexpr size_t kUniqExactLimit = 192;
const double kUniqStandardError = 1.04 / std::sqrt(4096.0);
/// A count of the registers may be off by this many standard errors in these tests (many
/// groups, each a chance).
constexpr double kTolerance = 4;

/// Whether `estimate` is a fine answer of a function whose exact limit and standard error
/// are these for `exact` distinct values: exact up to the limit, within the tolerance after.
::testing::AssertionResult closeEnough(uint64_t estimate, uint64_t exact, size_t exact_limit,
                                       double standard_error)
{
    const double allowed = exact <= exact_limit ? 0 : kTolerance * standard_error * exact;
    if (std::fabs(static_cast<double>(estimate) - static_cast<double>(exact)) <= allowed)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "estimate " << estimate << " of " << exact << " distinct values";
}

/// One state of `function`, in its own arena.
class OneState
{
public:
    explicit OneState(const AggregateFunctionPtr& function) : function_(function)
    {
        place_ = arena_.alignedAlloc(function->stateSize(), function->stateAlignment());
        function->create(place_, arena_);
    }
    ~OneState() { function_->destroy(place_); }
    OneState(const OneState&) = delete;
    OneState& operator=(const OneState&) = delete;

    char* place() { return place_; }
    Arena& arena() { return arena_; }
    void add(const Column& column)
    {
        const ColumnView view = column.view();
        function_->addBatchSinglePlace(&view, 0, view.rows, place_, arena_);
    }
    uint64_t result()
    {
        Column out(TypeId::UInt64);
        function_->insertResultInto(place_, out);
        return out.valueAt<uint64_t>(0);
    }
    std::string serialized() const
    {
        std::string bytes;
        function_->serialize(place_, bytes);
        return bytes;
    }

private:
    AggregateFunctionPtr function_;
    Arena arena_;
    char* place_;
};

AggregateFunctionPtr makeFunction(const std::string& name, TypeId type,
                                  std::vector<double> parameters = {})
{
    return createAggregateFunction(AggregateCall{name, {{"x", type}}, std::move(parameters)});
}

/// `distinct` different UInt64 values, each twice.
Column repeatedValues(uint64_t distinct, uint64_t first = 0)
{
    Column column(TypeId::UInt64);
    for (int copy = 0; copy < 2; ++copy)
    {
        for (uint64_t i = 0; i < distinct; ++i)
        {
            column.append(first + i * 0x9E3779B97F4A7C15ULL);
        }
    }
    return column;
}

TEST(UniqSketchState, ExactUpToTheLimitThenRegisters)
{
    EXPECT_EQ(UniqSketchState::exactLimit(kUniqPrecision), kUniqExactLimit);
    MemoryTracker tracker;
    MemoryTrackerScope scope(&tracker);
    UniqSketchState state(kUniqPrecision);
    EXPECT_EQ(state.count(), 0u);
    for (uint64_t distinct = 1; distinct <= kUniqExactLimit; ++distinct)
    {
        state.insert(sketchHash(distinct));
        state.insert(sketchHash(distinct));
        ASSERT_EQ(state.count(), distinct);
        // The first hashes live in the state itself: a group of few values allocates nothing.
        ASSERT_EQ(tracker.usedBytes() == 0, distinct <= UniqSketchState::kInlineHashes) << distinct;
        ASSERT_FALSE(state.usesRegisters());
    }
    state.insert(sketchHash(kUniqExactLimit + 1));
    EXPECT_TRUE(state.usesRegisters());
    // Registers of few values: register collisions' correction has a standard deviation of
    // n / sqrt(2m) values.
    EXPECT_NEAR(static_cast<double>(state.count()), kUniqExactLimit + 1.0,
                4 * (kUniqExactLimit + 1.0) / std::sqrt(2 * 4096.0));
    // The set is gone: the registers are all a large state holds.
    EXPECT_LT(tracker.usedBytes(), 2 * HyperLogLog::packedSize(kUniqPrecision));
}

TEST(UniqSketch, EveryTypeIsCountedAgainstAnExactSet)
{
    std::mt19937_64 random(7);
    constexpr size_t kRows = 20'000;
    for (TypeId type : {TypeId::UInt8, TypeId::UInt16, TypeId::UInt32, TypeId::UInt64, TypeId::Int8,
                        TypeId::Int16, TypeId::Int32, TypeId::Int64, TypeId::Float32,
                        TypeId::Float64, TypeId::Date, TypeId::DateTime, TypeId::String})
    {
        // Few distinct values (exact) and many (registers).
        for (uint64_t range : {100, 1'000'000})
        {
            SCOPED_TRACE(std::string(typeName(type)) + " range " + std::to_string(range));
            Column column(type);
            std::set<std::string> exact;
            for (size_t row = 0; row < kRows; ++row)
            {
                const uint64_t value = random() % range;
                dispatchType(type,
                             [&]<typename T>(TypeTag<T>)
                             {
                                 if constexpr (std::is_same_v<T, std::string_view>)
                                 {
                                     column.appendString("value " + std::to_string(value));
                                 }
                                 else if constexpr (std::is_floating_point_v<T>)
                                 {
                                     column.append(static_cast<T>(value) / 8);
                                 }
                                 else
                                 {
                                     column.append(static_cast<T>(value));
                                 }
                             });
                exact.insert(testing::printValue(testing::valueAt(column.view(), row)));
            }
            for (const std::string name : {"uniq", "uniqCombined"})
            {
                const AggregateFunctionPtr function = makeFunction(name, type);
                EXPECT_EQ(function->name(), name);
                EXPECT_EQ(function->resultType(), TypeId::UInt64);
                OneState state(function);
                state.add(column);
                EXPECT_TRUE(
                    closeEnough(state.result(), exact.size(), kUniqExactLimit, kUniqStandardError))
                    << name;
            }
        }
    }
}

TEST(UniqSketch, SerializedStatesRoundTripAndMerge)
{
    for (const std::string name : {"uniq", "uniqCombined"})
    {
        const AggregateFunctionPtr function = makeFunction(name, TypeId::UInt64);
        const size_t exact_limit = UniqSketchState::exactLimit(name == "uniq" ? 12 : 13);
        const size_t registers_bytes = HyperLogLog::packedSize(name == "uniq" ? 12 : 13);
        for (uint64_t distinct : {0, 3, 6, 7, 100, 192, 193, 384, 385, 5'000, 1'000'000})
        {
            SCOPED_TRACE(name + " of " + std::to_string(distinct));
            OneState direct(function);
            direct.add(repeatedValues(distinct));
            const std::string bytes = direct.serialized();
            // Compact: a kind byte and the hashes, or a kind byte, the precision, the registers.
            EXPECT_EQ(bytes.size(),
                      distinct <= exact_limit ? 5 + 8 * distinct : 2 + registers_bytes);
            function->checkSerialized(bytes);

            OneState restored(function);
            function->mergeSerialized(restored.place(), bytes, restored.arena());
            EXPECT_EQ(restored.result(), direct.result());
            EXPECT_TRUE(restored.serialized() == bytes);

            // Folding into a state with other values equals merging the states.
            OneState other(function);
            other.add(repeatedValues(150, 1));
            OneState merged(function);
            MergeContext context;
            function->merge(merged.place(), other.place(), context);
            function->merge(merged.place(), direct.place(), context);
            function->mergeSerialized(other.place(), bytes, other.arena());
            EXPECT_EQ(other.result(), merged.result());
            EXPECT_TRUE(other.serialized() == merged.serialized());
        }
    }
}

void expectCorrupted(const AggregateFunctionPtr& function, const std::string& bytes)
{
    for (bool merge : {false, true})
    {
        try
        {
            if (merge)
            {
                OneState state(function);
                function->mergeSerialized(state.place(), bytes, state.arena());
            }
            else
            {
                function->checkSerialized(bytes);
            }
            ADD_FAILURE() << "accepted " << bytes.size() << " corrupted bytes";
        }
        catch (const Exception& e)
        {
            EXPECT_EQ(e.code(), ErrorCode::kIncorrectData);
            EXPECT_NE(std::string(e.what()).find(function->name()), std::string::npos) << e.what();
        }
    }
}

TEST(UniqSketch, TruncatedOrCorruptedStatesAreRejected)
{
    const AggregateFunctionPtr function = makeFunction("uniqCombined", TypeId::UInt64);
    for (uint64_t distinct : {5, 300, 100'000})
    {
        OneState state(function);
        state.add(repeatedValues(distinct));
        const std::string bytes = state.serialized();
        for (size_t size = 0; size < bytes.size(); ++size)
        {
            expectCorrupted(function, bytes.substr(0, size));
        }
        expectCorrupted(function, bytes + '\0');
        std::string unknown_kind = bytes;
        unknown_kind[0] = 7;
        expectCorrupted(function, unknown_kind);
        if (distinct > 384)
        {
            std::string other_precision = bytes;
            other_precision[1] = 12;
            expectCorrupted(function, other_precision);
            // A register above the largest rank of this precision.
            std::string impossible_rank = bytes;
            impossible_rank[2] = static_cast<char>(0xFF);
            expectCorrupted(function, impossible_rank);
        }
        else
        {
            // More hashes than the state keeps exactly (and than there are bytes).
            std::string too_many = bytes;
            too_many[1] = static_cast<char>(0xFF);
            too_many[2] = static_cast<char>(0xFF);
            expectCorrupted(function, too_many);
        }
    }
    // uniq's registers are not uniqCombined's.
    OneState uniq_state(makeFunction("uniq", TypeId::UInt64));
    uniq_state.add(repeatedValues(100'000));
    expectCorrupted(function, uniq_state.serialized());
}

TEST(UniqSketch, PrecisionParameter)
{
    const AggregateFunctionPtr precise = makeFunction("uniqCombined", TypeId::UInt64, {16});
    OneState state(precise);
    state.add(repeatedValues(1'000'000));
    const double standard_error = 1.04 / std::sqrt(65536.0);
    EXPECT_TRUE(closeEnough(state.result(), 1'000'000, 0, standard_error));
    EXPECT_EQ(state.serialized().size(), 2 + HyperLogLog::packedSize(16));

    for (double bad : {9.0, 21.0, 12.5})
    {
        EXPECT_THROW(makeFunction("uniqCombined", TypeId::UInt64, {bad}), Exception);
    }
    try
    {
        makeFunction("uniq", TypeId::UInt64, {12});
        FAIL() << "uniq takes no parameter";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kBadArguments);
    }
    // uniq is no longer the exact count.
    EXPECT_FALSE(isDistinctCountName("uniq"));
    EXPECT_TRUE(isDistinctCountName("uniqExact"));
}

/// Group shapes of the test table that reach the aggregator's merge paths (as in
/// aggregator_test.cpp), with few groups so that some have many distinct values.
struct Shape
{
    std::string name;
    std::function<uint64_t(size_t)> group_of;
    size_t two_level_threshold;
    bool partition = true;
};

constexpr size_t kMorselRows = 100;
constexpr size_t kRows = 300 * kMorselRows;

std::vector<Shape> shapes()
{
    return {
        {"few_groups", [](size_t row) { return (row * 7919) % 40; }, 1'000'000'000},
        {"many_single_level", [](size_t row) { return (row * 7919) % 15000; }, 1'000'000'000},
        {"two_level", [](size_t row) { return (row * 7919) % 1500; }, 20},
        {"two_level_unpartitioned", [](size_t row) { return (row * 7919) % 1500; }, 20, false},
        {"mixed_levels", [](size_t row) { return row < 16 * kMorselRows ? 1000 + row : row % 30; },
         kMorselRows / 2},
    };
}

/// Group key (printed) -> the distinct printed values of `argument` in its rows where `mask`
/// (if named) is non-zero.
std::map<std::string, std::set<std::string>> exactGroups(const BlockView& input,
                                                         const std::vector<std::string>& keys,
                                                         const std::string& argument,
                                                         const std::string& mask)
{
    std::map<std::string, std::set<std::string>> groups;
    for (size_t row = 0; row < input.rows(); ++row)
    {
        std::string key;
        for (const std::string& name : keys)
        {
            key += testing::printValue(testing::valueAt(*input.find(name), row)) + '\x1f';
        }
        std::set<std::string>& values = groups[key];
        if (mask.empty() || input.find(mask)->valueAt<uint8_t>(row) != 0)
        {
            values.insert(testing::printValue(testing::valueAt(*input.find(argument), row)));
        }
    }
    return groups;
}

TEST(UniqSketch, GroupByMatchesExactCountsOnEveryMergePathAndThreadCount)
{
    struct Call
    {
        std::string function;
        std::string argument;
        std::string mask = {};
    };
    const std::vector<Call> calls = {{"uniq", "v_i64"},
                                     {"uniq", "v_str"},
                                     {"uniqCombined", "v_u32"},
                                     {"uniqCombined", "v_f64"},
                                     {"uniqIf", "v_i64", "k_u8"}};
    const std::vector<std::vector<std::string>> key_sets = {
        {"k_u8"}, {"k_u64"}, {"k_str"}, {"k_u32", "k_u16"}, {"k_str", "k_u32"}};
    for (const Shape& shape : shapes())
    {
        const Block table = testing::makeTestTable(kRows, shape.group_of, 11);
        const BlockView input = BlockView::of(table);
        for (const auto& keys : key_sets)
        {
            std::vector<AggregateDescription> descriptions;
            std::vector<std::map<std::string, std::set<std::string>>> expected;
            for (size_t i = 0; i < calls.size(); ++i)
            {
                AggregateDescription description{
                    calls[i].function, {calls[i].argument}, "a" + std::to_string(i)};
                if (!calls[i].mask.empty())
                {
                    description.arguments.push_back(calls[i].mask);
                }
                descriptions.push_back(description);
                expected.push_back(exactGroups(input, keys, calls[i].argument, calls[i].mask));
            }
            std::string single_thread_result;
            for (size_t threads : {1, 2, 7, 64, 256})
            {
                // Oversubscribed runs (slow on few cores) for one key set only.
                if (threads > 8 && keys != key_sets[1])
                {
                    continue;
                }
                SCOPED_TRACE(shape.name + " keys " + keys[0] + " threads " +
                             std::to_string(threads));
                AggregationSettings settings;
                settings.morsel_rows = kMorselRows;
                settings.deterministic_morsels = true;
                settings.group_by_two_level_threshold = shape.two_level_threshold;
                settings.partition_high_cardinality = shape.partition;
                settings.max_threads = threads;
                QueryContext context(threads);
                const Block result =
                    Aggregator(keys, descriptions, settings).execute(input, context);
                const BlockView view = BlockView::of(result);
                ASSERT_EQ(result.rows(), expected[0].size());

                // Registers and sets do not depend on the order of merges: every thread count
                // gives the same counts per group.
                std::map<std::string, std::string> printed;
                for (size_t row = 0; row < result.rows(); ++row)
                {
                    std::string key;
                    for (size_t k = 0; k < keys.size(); ++k)
                    {
                        key += testing::printValue(testing::valueAt(view.columns[k].column, row)) +
                               '\x1f';
                    }
                    for (size_t i = 0; i < calls.size(); ++i)
                    {
                        const uint64_t estimate =
                            view.columns[keys.size() + i].column.valueAt<uint64_t>(row);
                        const bool uniq = calls[i].function != "uniqCombined";
                        ASSERT_TRUE(closeEnough(
                            estimate, expected[i].at(key).size(), uniq ? kUniqExactLimit : 384,
                            uniq ? kUniqStandardError : 1.04 / std::sqrt(8192.0)))
                            << calls[i].function << "(" << calls[i].argument << ") group " << key;
                        printed[key] += std::to_string(estimate) + " ";
                    }
                }
                std::string all;
                for (const auto& [key, counts] : printed)
                {
                    all += key + counts + "\n";
                }
                if (threads == 1)
                {
                    single_thread_result = all;
                }
                EXPECT_TRUE(all == single_thread_result);
            }
        }
    }
}

TEST(UniqSketch, AMillionSmallGroupsStaySmall)
{
    constexpr size_t kGroups = 1'000'000;
    constexpr uint64_t kValuesPerGroup = 3;
    const Block table = testing::makeSmallGroupsTable(kGroups, kValuesPerGroup);
    const BlockView input = BlockView::of(table);
    QueryContext context(2);
    const Block result = Aggregator({"k"}, {{"uniq", {"v"}, "u"}, {"uniqCombined", {"v"}, "c"}})
                             .execute(input, context);
    ASSERT_EQ(result.rows(), kGroups);
    const ColumnView counts = result.find("u")->view();
    for (size_t row = 0; row < kGroups; ++row)
    {
        ASSERT_EQ(counts.valueAt<uint64_t>(row), kValuesPerGroup);
    }
    // Two 72-byte states, a key and the table's cells per group: far from a sketch's KiBs.
    constexpr size_t kBytesPerGroup = 512;
    RecordProperty("peak_bytes_per_group", std::to_string(context.memory().peakBytes() / kGroups));
    EXPECT_LT(context.memory().peakBytes(), kGroups * kBytesPerGroup)
        << context.memory().peakBytes() / kGroups << " bytes per group";
}

}  // namespace
}  // namespace granary
