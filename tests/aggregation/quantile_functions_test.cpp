// quantileExact, quantile and quantileTDigest (and their medians) through the Aggregator on
// every merge path, against a sort of each group's values; their states' partial format; and
// their errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/aggregator.h"
#include "engine/aggregation/functions/quantile_exact.h"
#include "engine/aggregation/functions/reservoir_sample.h"
#include "engine/aggregation/functions/t_digest.h"
#include "engine/common/exception.h"
#include "merge_path_shapes.h"
#include "reference_aggregator.h"
#include "test_table.h"

namespace granary
{
namespace
{

constexpr size_t kRows = testing::kShapeRows;
/// The thread counts of every run: 1, a few, and oversubscribed (many partials to merge).
const std::vector<size_t> kThreadCounts = {1, 2, 7, 64, 256};
/// Every NaN_EVERY-th row of v_nan is NaN, which the quantiles skip.
constexpr size_t kNanEvery = 5;

/// A call to check: function(level)(argument), or with a condition (the -If combinator).
struct QuantileCall
{
    std::string function;
    std::vector<double> parameters;
    std::string argument;
    std::string condition = {};
};

const std::vector<QuantileCall> kCalls = {
    {"quantileExact", {0.9}, "v_u32"},
    {"quantileExact", {0}, "v_i64"},
    {"quantileExact", {1}, "v_f64"},
    {"quantileExact", {0.01}, "v_nan"},
    {"quantileExact", {}, "v_i8"},
    {"medianExact", {}, "k_date"},
    {"quantileExactIf", {0.37}, "v_i64", "c_some"},
    {"quantile", {0.25}, "v_f64"},
    {"quantile", {0.99}, "v_nan"},
    {"median", {}, "v_i64"},
    {"quantileIf", {0.75}, "v_u32", "c_some"},
    {"quantileTDigest", {0.5}, "v_f64"},
    {"quantileTDigest", {0.01}, "v_u32"},
    {"medianTDigest", {}, "v_i64"},
};

Block makeTable(const testing::MergePathShape& shape)
{
    Block table = testing::makeTestTable(kRows, shape.group_of, 11);
    Column v_nan(TypeId::Float64);
    for (size_t row = 0; row < kRows; ++row)
    {
        v_nan.append(row % kNanEvery == 0 ? std::numeric_limits<double>::quiet_NaN()
                                          : std::sin(double(row)) * 1000);
    }
    table.columns.push_back({"v_nan", std::move(v_nan)});
    // The -If condition: two rows in three and each group's first row. (A group whose every row
    // is rejected should give NULL, but two-level finalization drops NULLs: an engine issue
    // of every -If function, left out here.)
    Column condition(TypeId::UInt8);
    std::set<uint64_t> seen_groups;
    for (size_t row = 0; row < kRows; ++row)
    {
        condition.append(
            static_cast<uint8_t>(row % 3 != 0 || seen_groups.insert(shape.group_of(row)).second));
    }
    table.columns.push_back({"c_some", std::move(condition)});
    return table;
}

double levelOf(const QuantileCall& call)
{
    return call.parameters.empty() ? 0.5 : call.parameters[0];
}

/// The values of `rows` in `column`, NaN left out, sorted.
std::vector<long double> sortedValues(const ColumnView& column, const std::vector<size_t>& rows)
{
    std::vector<long double> values;
    for (size_t row : rows)
    {
        const long double value = std::get<long double>(testing::valueAt(column, row));
        if (!std::isnan(value))
        {
            values.push_back(value);
        }
    }
    std::sort(values.begin(), values.end());
    return values;
}

/// The interpolated quantile of sorted values at position level * (n - 1).
long double interpolatedQuantile(const std::vector<long double>& sorted, double level)
{
    const long double position = level * (sorted.size() - 1);
    const size_t lower = static_cast<size_t>(position);
    if (lower + 1 >= sorted.size())
    {
        return sorted[lower];
    }
    return sorted[lower] + (sorted[lower + 1] - sorted[lower]) * (position - lower);
}

/// How far the rank of `value` among `sorted` is from `level`, as a fraction of the values:
/// 0 when level * n lies within the ranks that `value` occupies (or would be inserted at).
double rankError(const std::vector<long double>& sorted, long double value, double level)
{
    const double n = double(sorted.size());
    const double below =
        double(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin()) / n;
    const double at_most =
        double(std::upper_bound(sorted.begin(), sorted.end(), value) - sorted.begin()) / n;
    return std::max({0.0, below - level, level - at_most});
}

/// Checks one result cell against the group's values (`sorted`, from `kept_rows` rows, NaN
/// left out); empty when right, else the problem. No row kept (by the condition) gives NULL;
/// rows of NaN only, NaN.
std::string checkCell(const QuantileCall& call, const Column& result, size_t result_row,
                      size_t kept_rows, const std::vector<long double>& sorted)
{
    if (kept_rows == 0)
    {
        return result.isNull(result_row) ? "" : "a group without rows is not NULL";
    }
    if (result.isNull(result_row))
    {
        return "NULL for a group with rows";
    }
    if (sorted.empty())
    {
        return std::isnan(result.valueAt<double>(result_row)) ? "" : "not NaN over NaN only";
    }
    const long double value = std::get<long double>(testing::valueAt(result.view(), result_row));
    const double level = levelOf(call);
    const std::string printed = testing::printValue(value);
    if (call.function.starts_with("quantileExact") || call.function == "medianExact")
    {
        // ClickHouse's position: floor(level * n), the last for level 1.
        const size_t position =
            std::min(sorted.size() - 1, static_cast<size_t>(std::floor(level * sorted.size())));
        const long double expected = sorted[position];
        return value == expected ? "" : printed + " instead of " + testing::printValue(expected);
    }
    const bool digest = call.function.find("TDigest") != std::string::npos;
    if (!digest)
    {
        // Groups here hold fewer values than a sample: the sample is all of them.
        const long double expected = interpolatedQuantile(sorted, level);
        const long double tolerance = 1e-12L * std::max(1.0L, std::fabs(expected));
        return std::fabs(value - expected) <= tolerance
                   ? ""
                   : printed + " instead of " + testing::printValue(expected);
    }
    const double error = rankError(sorted, value, level);
    // One value's rank more than the digest's bound: interpolation between ranks.
    return error <= TDigest::kRankErrorBound + 1.0 / double(sorted.size())
               ? ""
               : printed + " is off by " + std::to_string(error) + " in rank";
}

/// What one call sees of one group: the rows kept and their values (NaN left out), sorted.
struct GroupValues
{
    size_t rows;
    std::vector<long double> sorted;
};

std::vector<AggregateDescription> describe(const std::vector<QuantileCall>& calls)
{
    std::vector<AggregateDescription> descriptions;
    for (size_t i = 0; i < calls.size(); ++i)
    {
        AggregateDescription description{
            calls[i].function, {calls[i].argument}, "a" + std::to_string(i)};
        if (!calls[i].condition.empty())
        {
            description.arguments.push_back(calls[i].condition);
        }
        description.parameters = calls[i].parameters;
        descriptions.push_back(description);
    }
    return descriptions;
}

/// Per group (by the key's printed value) and call: the rows its condition keeps and their
/// values, sorted.
std::map<std::string, std::vector<GroupValues>> expectedGroups(
    const BlockView& input, const std::string& key, const std::vector<QuantileCall>& calls)
{
    const ColumnView key_column = *input.find(key);
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t row = 0; row < kRows; ++row)
    {
        groups[testing::printValue(testing::valueAt(key_column, row))].push_back(row);
    }
    std::map<std::string, std::vector<GroupValues>> expected;
    for (const auto& [group, rows] : groups)
    {
        for (const QuantileCall& call : calls)
        {
            std::vector<size_t> kept;
            for (size_t row : rows)
            {
                if (call.condition.empty() ||
                    input.find(call.condition)->valueAt<uint8_t>(row) != 0)
                {
                    kept.push_back(row);
                }
            }
            expected[group].push_back(
                {kept.size(), sortedValues(*input.find(call.argument), kept)});
        }
    }
    return expected;
}

/// Runs `calls` grouped by `key` on every shape and thread count; `check(call index, result
/// column, result row, group's values)` returns each cell's problem or "".
template <typename Check>
void checkOnEveryMergePath(const std::vector<QuantileCall>& calls,
                           const std::vector<std::string>& keys, Check&& check)
{
    const std::vector<AggregateDescription> descriptions = describe(calls);
    for (const testing::MergePathShape& shape : testing::mergePathShapes())
    {
        const Block table = makeTable(shape);
        const BlockView input = BlockView::of(table);
        for (const std::string& key : keys)
        {
            const auto expected = expectedGroups(input, key, calls);
            for (size_t threads : kThreadCounts)
            {
                SCOPED_TRACE(shape.name + " key " + key + " threads " + std::to_string(threads));
                QueryContext context(threads);
                AggregationSettings settings = shape.settings;
                settings.max_threads = threads;
                const Block result =
                    Aggregator({key}, descriptions, settings).execute(input, context);
                ASSERT_EQ(result.rows(), expected.size());
                size_t mismatches = 0;
                for (size_t row = 0; row < result.rows() && mismatches < 5; ++row)
                {
                    const std::string group =
                        testing::printValue(testing::valueAt(result.columns[0].column.view(), row));
                    for (size_t i = 0; i < calls.size(); ++i)
                    {
                        const std::string problem =
                            check(i, result.columns[1 + i].column, row, expected.at(group)[i]);
                        if (!problem.empty())
                        {
                            ADD_FAILURE() << calls[i].function << "(" << calls[i].argument
                                          << ") of group " << group << ": " << problem;
                            ++mismatches;
                        }
                    }
                }
            }
        }
    }
}

TEST(QuantileFunctions, MatchSortedGroupsOnEveryMergePathAndThreadCount)
{
    checkOnEveryMergePath(
        kCalls, {"k_u64", "k_u16", "k_str"},
        [](size_t i, const Column& result, size_t row, const GroupValues& values)
        { return checkCell(kCalls[i], result, row, values.rows, values.sorted); });
}

/// quantiles(l1, l2, ...)(x) and its exact and t-digest forms: each element is what the
/// one-level function at that level must give.
const std::vector<QuantileCall> kSeveralLevelCalls = {
    {"quantilesExact", {0.1, 0.5, 0.9, 1}, "v_i64"},
    {"quantiles", {0.25, 0.75, 0}, "v_f64"},
    {"quantiles", {0.5, 0.99}, "v_nan"},
    {"quantilesTDigest", {0.5, 0.01, 0.99}, "v_u32"},
    {"quantilesExactIf", {0.2, 0.8}, "v_i64", "c_some"},
};

TEST(QuantileFunctions, SeveralLevelsGiveAnArrayOfEachLevelsQuantile)
{
    checkOnEveryMergePath(
        kSeveralLevelCalls, {"k_u64", "k_str"},
        [](size_t i, const Column& result, size_t row, const GroupValues& values) -> std::string
        {
            const QuantileCall& call = kSeveralLevelCalls[i];
            const ColumnView view = result.view();
            if (view.offsets[row + 1] - view.offsets[row] != call.parameters.size())
            {
                return "an array of " + std::to_string(view.offsets[row + 1] - view.offsets[row]) +
                       " elements";
            }
            std::string name = call.function;
            name.erase(name.find("quantiles") + std::string("quantile").size(), 1);
            for (size_t level = 0; level < call.parameters.size(); ++level)
            {
                const QuantileCall one{name, {call.parameters[level]}, call.argument};
                const std::string problem = checkCell(
                    one, result.child(0), view.offsets[row] + level, values.rows, values.sorted);
                if (!problem.empty())
                {
                    return "level " + std::to_string(call.parameters[level]) + ": " + problem;
                }
            }
            return "";
        });
}

/// quantileExact's answer at every level of `levels` for `values`, against a sort.
template <typename T>
void checkExactAgainstSort(const std::vector<T>& values, const std::string& what)
{
    std::vector<T> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (const double level : {0.0, 0.001, 0.25, 0.5, 0.77, 0.999, 1.0})
    {
        ExactQuantile<T> exact;
        for (const T value : values)
        {
            exact.add(value);
        }
        const size_t position = ExactQuantile<T>::positionOf(level, values.size());
        EXPECT_EQ(exact.quantile(level), sorted[position]) << what << " level " << level;
    }
}

TEST(QuantileFunctions, ExactQuantilesOfNarrowIntegerRangesAreCountedAlike)
{
    // Integers of a range up to 65536 wide, at least as many values as the range, are counted
    // rather than partially sorted: both must give the sorted values' element, at the range's
    // edges, with negative values, extreme 64-bit values and counts that are not a multiple of
    // the counting lanes.
    std::mt19937_64 random(3);
    const auto draw = [&](size_t count, int64_t low, uint64_t range)
    {
        std::vector<int64_t> values(count);
        for (int64_t& value : values)
        {
            value = low + static_cast<int64_t>(random() % range);
        }
        return values;
    };
    checkExactAgainstSort(draw(70'001, -30'000, 65'536), "range 65536");
    checkExactAgainstSort(draw(70'003, -30'000, 65'537), "range 65537 (sorted)");
    checkExactAgainstSort(draw(1'002, std::numeric_limits<int64_t>::max() - 999, 1'000),
                          "top of Int64");
    checkExactAgainstSort(draw(1'001, std::numeric_limits<int64_t>::min(), 7), "bottom of Int64");
    checkExactAgainstSort(draw(999, 0, 1'000), "fewer values than the range");
    std::vector<int8_t> bytes(513);
    for (int8_t& value : bytes)
    {
        value = static_cast<int8_t>(random());
    }
    checkExactAgainstSort(bytes, "Int8");
    std::vector<uint16_t> runs(100'002, 40'000);  // one value: a run through every lane
    runs[77] = 3;
    checkExactAgainstSort(runs, "runs of UInt16");
}

TEST(QuantileFunctions, ResultTypes)
{
    const std::vector<AggregateArgument> date = {{"d", TypeId::Date}};
    const std::vector<AggregateArgument> big = {{"b", TypeId::UInt64}};
    EXPECT_EQ(createAggregateFunction(AggregateCall{"quantileExact", date, {0.5}})->resultType(),
              TypeId::Date);
    EXPECT_EQ(createAggregateFunction(AggregateCall{"medianExact", big})->resultType(),
              TypeId::UInt64);
    EXPECT_EQ(createAggregateFunction(AggregateCall{"quantile", date, {0.5}})->resultType(),
              TypeId::Float64);
    EXPECT_EQ(createAggregateFunction(AggregateCall{"MEDIAN", big})->resultType(), TypeId::Float64);
    EXPECT_EQ(createAggregateFunction(AggregateCall{"quantileTDigest", big})->resultType(),
              TypeId::Float64);
    for (const char* function : {"quantileExact", "quantile", "quantileTDigest"})
    {
        EXPECT_FALSE(createAggregateFunction(AggregateCall{function, big})->hasTrivialDestroy())
            << function;
    }
    EXPECT_EQ(
        createAggregateFunction(AggregateCall{"quantilesExact", date, {0.5, 0.9}})->resultType(),
        DataType::array(TypeId::Date));
    EXPECT_EQ(createAggregateFunction(AggregateCall{"quantiles", date, {0.5}})->resultType(),
              DataType::array(TypeId::Float64));
    EXPECT_EQ(createAggregateFunction(AggregateCall{"quantilesTDigest", big, {0, 1}})->resultType(),
              DataType::array(TypeId::Float64));
}

/// Exception `code` from creating function(parameters)(argument of `type`), naming the
/// function and `detail`.
void expectCreateError(const std::string& function, std::vector<double> parameters, TypeId type,
                       ErrorCode code, const std::string& detail)
{
    SCOPED_TRACE(function + " " + detail);
    try
    {
        createAggregateFunction(AggregateCall{function, {{"x", type}}, std::move(parameters)});
        ADD_FAILURE() << "expected an exception";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), code);
        const std::string message = e.what();
        EXPECT_NE(message.find(function), std::string::npos) << message;
        EXPECT_NE(message.find(detail), std::string::npos) << message;
    }
}

TEST(QuantileFunctions, BadLevelsParameterCountsAndTypesAreClearErrors)
{
    for (const char* function : {"quantileExact", "quantile", "quantileTDigest"})
    {
        expectCreateError(function, {-0.1}, TypeId::Int64, ErrorCode::kBadArguments, "-0.1");
        expectCreateError(function, {1.5}, TypeId::Int64, ErrorCode::kBadArguments, "1.5");
        expectCreateError(function, {std::nan("")}, TypeId::Int64, ErrorCode::kBadArguments,
                          "level in [0, 1]");
        expectCreateError(function, {0.1, 0.9}, TypeId::Int64, ErrorCode::kBadArguments,
                          "0 to 1 parameter, got 2");
        expectCreateError(function, {0.5}, TypeId::String, ErrorCode::kTypeMismatch, "'x'");
    }
    for (const char* function : {"quantilesExact", "quantiles", "quantilesTDigest"})
    {
        expectCreateError(function, {0.5, 1.5}, TypeId::Int64, ErrorCode::kBadArguments, "1.5");
        expectCreateError(function, {}, TypeId::Int64, ErrorCode::kBadArguments,
                          "1 to 1024 parameters, got 0");
        expectCreateError(function, {0.5}, TypeId::String, ErrorCode::kTypeMismatch, "'x'");
    }
    for (const char* function : {"medianExact", "median", "medianTDigest"})
    {
        expectCreateError(function, {0.5}, TypeId::Int64, ErrorCode::kBadArguments,
                          "0 parameters, got 1");
        expectCreateError(function, {}, TypeId::String, ErrorCode::kTypeMismatch, "String");
    }
    // The -If combinator's level is checked as the function's.
    const Block table = testing::makeTestTable(
        10, [](size_t row) { return row; }, 1);
    QueryContext context(1);
    try
    {
        Aggregator({"k_u8"}, {{"quantileIf", {"v_u32", "k_u8"}, "q", "", {2}}})
            .execute(BlockView::of(table), context);
        ADD_FAILURE() << "expected an exception";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(e.what()).find("quantile"), std::string::npos) << e.what();
    }
}

/// A state of `function` over `values` (Float64), built through the function's interface.
class State
{
public:
    State(AggregateFunctionPtr function, const std::vector<double>& values)
        : function_(std::move(function)),
          bytes_(function_->stateSize() + function_->stateAlignment())
    {
        const size_t alignment = function_->stateAlignment();
        place_ =
            bytes_.data() + (alignment - reinterpret_cast<uintptr_t>(bytes_.data()) % alignment);
        function_->create(place_, arena_);
        const ColumnView column{TypeId::Float64, values.size(), values.data(), nullptr, nullptr};
        function_->addBatchSinglePlace(&column, 0, values.size(), place_, arena_);
    }
    ~State() { function_->destroy(place_); }
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    std::string serialize() const
    {
        std::string bytes;
        function_->serialize(place_, bytes);
        return bytes;
    }
    void mergeSerialized(std::string_view bytes)
    {
        function_->checkSerialized(bytes);
        function_->mergeSerialized(place_, bytes, arena_);
    }
    double result()
    {
        Column column(TypeId::Float64);
        function_->insertResultInto(place_, column);
        return column.valueAt<double>(0);
    }

private:
    AggregateFunctionPtr function_;
    Arena arena_;
    std::vector<char> bytes_;
    char* place_;
};

AggregateFunctionPtr makeFunction(const std::string& name, double level)
{
    return createAggregateFunction(AggregateCall{name, {{"x", TypeId::Float64}}, {level}});
}

/// Values with duplicates, sizes on both sides of the reservoir's capacity.
std::vector<double> someValues(size_t count, uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::vector<double> values(count);
    for (double& value : values)
    {
        value = double(random() % 5000) / 8;
    }
    return values;
}

TEST(QuantileFunctions, SerializedStatesRoundTrip)
{
    for (const char* name : {"quantileExact", "quantile", "quantileTDigest"})
    {
        for (size_t count :
             {size_t{0}, size_t{1}, size_t{700}, ReservoirSample::kCapacity + 1, size_t{50'000}})
        {
            SCOPED_TRACE(std::string(name) + " over " + std::to_string(count));
            const AggregateFunctionPtr function = makeFunction(name, 0.3);
            State original(function, someValues(count, count));
            const std::string bytes = original.serialize();
            State copy(function, {});
            copy.mergeSerialized(bytes);
            EXPECT_EQ(copy.serialize(), bytes);
            const double expected = original.result();
            if (std::isnan(expected))
            {
                EXPECT_TRUE(std::isnan(copy.result()));
            }
            else
            {
                EXPECT_EQ(copy.result(), expected);
            }
        }
    }
}

/// Exception(kIncorrectData) naming the function, from checking `bytes`.
void expectCorrupted(const AggregateFunction& function, std::string_view bytes)
{
    try
    {
        function.checkSerialized(bytes);
        ADD_FAILURE() << "accepted " << bytes.size() << " bytes";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kIncorrectData);
        EXPECT_NE(std::string(e.what()).find(function.name()), std::string::npos) << e.what();
    }
}

TEST(QuantileFunctions, TruncatedOrCorruptedStatesAreExceptionsNamingTheFunction)
{
    for (const char* name : {"quantileExact", "quantile", "quantileTDigest"})
    {
        SCOPED_TRACE(name);
        const AggregateFunctionPtr function = makeFunction(name, 0.5);
        State state(function, someValues(300, 7));
        const std::string bytes = state.serialize();
        for (size_t size = 0; size < bytes.size(); ++size)
        {
            expectCorrupted(*function, std::string_view(bytes).substr(0, size));
        }
        expectCorrupted(*function, bytes + '\0');
        // A count far beyond the bytes: truncated, without reserving for it.
        std::string huge_count = bytes;
        const size_t count_offset = std::string_view(name) == "quantileTDigest" ? 16 : 0;
        huge_count.replace(count_offset, 4, 4, '\xff');
        expectCorrupted(*function, huge_count);
        // A NaN where a value or mean is.
        std::string with_nan = bytes;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        with_nan.replace(bytes.size() - (std::string_view(name) == "quantileTDigest" ? 16 : 8), 8,
                         reinterpret_cast<const char*>(&nan), 8);
        expectCorrupted(*function, with_nan);
        // Random byte flips are either rejected or read as some state, never a crash.
        std::mt19937_64 random(3);
        for (int attempt = 0; attempt < 2000; ++attempt)
        {
            std::string flipped = bytes;
            flipped[random() % flipped.size()] ^= static_cast<char>(1 + random() % 255);
            try
            {
                State target(function, someValues(10, 1));
                target.mergeSerialized(flipped);
                target.result();
            }
            catch (const Exception& e)
            {
                EXPECT_EQ(e.code(), ErrorCode::kIncorrectData);
            }
        }
    }
    // States of the right length whose parts disagree.
    const AggregateFunctionPtr reservoir = makeFunction("quantile", 0.5);
    std::string wrong_size;
    appendStateValue(wrong_size, uint64_t{3});
    appendStateValue(wrong_size, uint32_t{2});
    appendStateValue(wrong_size, 1.0);
    appendStateValue(wrong_size, 2.0);
    expectCorrupted(*reservoir, wrong_size);
    const AggregateFunctionPtr digest = makeFunction("quantileTDigest", 0.5);
    std::string zero_weight;
    appendStateValue(zero_weight, 1.0);
    appendStateValue(zero_weight, 2.0);
    appendStateValue(zero_weight, uint32_t{1});
    appendStateValue(zero_weight, 1.5);
    appendStateValue(zero_weight, uint64_t{0});
    expectCorrupted(*digest, zero_weight);
    std::string mean_outside;
    appendStateValue(mean_outside, 1.0);
    appendStateValue(mean_outside, 2.0);
    appendStateValue(mean_outside, uint32_t{1});
    appendStateValue(mean_outside, 3.0);
    appendStateValue(mean_outside, uint64_t{1});
    expectCorrupted(*digest, mean_outside);
}

TEST(QuantileFunctions, AMillionSmallGroupsStaySmall)
{
    constexpr size_t kGroups = 1'000'000;
    constexpr uint64_t kValuesPerGroup = 3;
    const Block table = testing::makeSmallGroupsTable(kGroups, kValuesPerGroup);
    const BlockView input = BlockView::of(table);
    QueryContext context(2);
    const Block result = Aggregator({"k"}, {{"quantileExact", {"v"}, "e", "", {0.5}},
                                            {"quantile", {"v"}, "r", "", {0.5}},
                                            {"quantileTDigest", {"v"}, "t", "", {0.5}}})
                             .execute(input, context);
    ASSERT_EQ(result.rows(), kGroups);
    const ColumnView groups = result.find("k")->view();
    const ColumnView exact = result.find("e")->view();
    const ColumnView sampled = result.find("r")->view();
    const ColumnView digested = result.find("t")->view();
    for (size_t row = 0; row < kGroups; ++row)
    {
        // Three values are below every summary's capacity: each gives the middle one.
        const uint64_t middle = groups.valueAt<uint64_t>(row) * 10 + 1;
        ASSERT_EQ(exact.valueAt<uint64_t>(row), middle);
        ASSERT_EQ(sampled.valueAt<double>(row), double(middle));
        ASSERT_EQ(digested.valueAt<double>(row), double(middle));
    }
    // Three states that grow with their values, a key and the table's cells per group: far
    // from a full sample's 64 KiB or a digest's 17.6 KiB.
    constexpr size_t kBytesPerGroup = 512;
    RecordProperty("peak_bytes_per_group", std::to_string(context.memory().peakBytes() / kGroups));
    EXPECT_LT(context.memory().peakBytes(), kGroups * kBytesPerGroup)
        << context.memory().peakBytes() / kGroups << " bytes per group";
}

}  // namespace
}  // namespace granary
