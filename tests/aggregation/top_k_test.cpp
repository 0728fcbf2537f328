// topK through the Aggregator on every merge path and thread count, against each group's exact
// value counts: Space-Saving's guarantees (a count is off by at most kept rows / counters), the
// exact answer where the true counts are further apart than that, the state format, and errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/aggregator.h"
#include "engine/aggregation/functions/space_saving.h"
#include "engine/common/exception.h"
#include "merge_path_shapes.h"
#include "reference_aggregator.h"

namespace granary
{
namespace
{

/// One call to check: topK(parameters)(argument), with a condition for topKIf.
struct TopKCall
{
    std::vector<double> parameters;
    std::string argument;
    std::string condition = {};

    size_t values() const { return parameters.empty() ? 10 : size_t(parameters[0]); }
    size_t counters() const
    {
        return values() * (parameters.size() > 1 ? size_t(parameters[1]) : 3);
    }
};

const std::vector<TopKCall> kCalls = {
    {{3}, "v_int"}, {{3}, "v_str"}, {{2, 5}, "v_float"},
    {{}, "v_int"},  {{1}, "v_str"}, {{3}, "v_int", "c_some"},
};

/// Value `rank` of a skewed distribution: ranks 0-2 take 45, 25 and 12 % of the rows, the rest
/// spread over 100,000 rare values.
int64_t skewedValue(std::mt19937_64& random)
{
    const uint64_t draw = random() % 100;
    if (draw < 45)
    {
        return 7;
    }
    if (draw < 70)
    {
        return -3;
    }
    if (draw < 82)
    {
        return 1'000'000'007;
    }
    return 100 + static_cast<int64_t>(random() % 100'000);
}

Block makeTable(const testing::MergePathShape& shape)
{
    std::mt19937_64 random(29);
    Column key(TypeId::UInt64);
    Column v_int(TypeId::Int64);
    Column v_str(TypeId::String);
    Column v_float(TypeId::Float64);
    Column c_some(TypeId::UInt8);
    std::map<uint64_t, bool> seen;
    for (size_t row = 0; row < testing::kShapeRows; ++row)
    {
        const uint64_t group = shape.group_of(row);
        key.append(group);
        const int64_t value = skewedValue(random);
        v_int.append(value);
        // Short strings and ones past the inline size of std::string.
        v_str.appendString(value % 2 == 0 ? std::to_string(value)
                                          : "long value number " + std::to_string(value));
        // The second most frequent float is NaN: all NaNs count as one value.
        v_float.append(value == -3 ? std::numeric_limits<double>::quiet_NaN() : double(value) / 4);
        // Two rows in three, and each group's first.
        c_some.append(static_cast<uint8_t>(row % 3 != 0 || seen.emplace(group, true).second));
    }
    Block table;
    table.columns.push_back({"key", std::move(key)});
    table.columns.push_back({"v_int", std::move(v_int)});
    table.columns.push_back({"v_str", std::move(v_str)});
    table.columns.push_back({"v_float", std::move(v_float)});
    table.columns.push_back({"c_some", std::move(c_some)});
    return table;
}

/// The exact counts of one group's kept values, by printed value.
struct GroupCounts
{
    size_t rows = 0;
    std::map<std::string, size_t> counts;

    /// The k-th largest count (1-based), 0 past the last.
    size_t countAtRank(size_t k) const
    {
        std::vector<size_t> sorted;
        for (const auto& [value, count] : counts)
        {
            sorted.push_back(count);
        }
        std::sort(sorted.rbegin(), sorted.rend());
        return k <= sorted.size() ? sorted[k - 1] : 0;
    }
    size_t countOf(const std::string& value) const
    {
        const auto found = counts.find(value);
        return found == counts.end() ? 0 : found->second;
    }
};

/// Whether the true counts of ranks 1..values+1 are further apart than `bound`: then the
/// summary's answer is exactly the true top values in order.
bool separated(const GroupCounts& group, size_t values, double bound)
{
    for (size_t k = 1; k <= values && k < group.counts.size(); ++k)
    {
        if (double(group.countAtRank(k) - group.countAtRank(k + 1)) <= bound)
        {
            return false;
        }
    }
    return true;
}

/// Checks one group's answer against its counts; returns the problem or "". Sets `exact` when
/// the counts were separated enough for the answer to be checked value for value.
std::string checkAnswer(const TopKCall& call, const GroupCounts& group,
                        const std::vector<std::string>& answer, bool& exact)
{
    const size_t values = call.values();
    const double bound = double(group.rows) / double(call.counters());
    if (answer.size() != std::min(values, group.counts.size()))
    {
        return std::to_string(answer.size()) + " values for " +
               std::to_string(group.counts.size()) + " distinct";
    }
    for (size_t i = 0; i < answer.size(); ++i)
    {
        if (group.countOf(answer[i]) == 0)
        {
            return answer[i] + " is not among the group's values";
        }
        if (std::count(answer.begin(), answer.end(), answer[i]) != 1)
        {
            return answer[i] + " is there twice";
        }
        // Kept values are no rarer than the values-th count less the bound...
        if (double(group.countOf(answer[i])) < double(group.countAtRank(values)) - bound)
        {
            return answer[i] + " is too rare";
        }
        // ...and in order up to the bound.
        if (i > 0 &&
            double(group.countOf(answer[i - 1])) < double(group.countOf(answer[i])) - bound)
        {
            return answer[i - 1] + " before the more frequent " + answer[i];
        }
    }
    // Values left out are no more frequent than the (values+1)-th count plus the bound.
    for (const auto& [value, count] : group.counts)
    {
        if (std::find(answer.begin(), answer.end(), value) == answer.end() &&
            double(count) > double(group.countAtRank(values + 1)) + bound)
        {
            return value + " (" + std::to_string(count) + " rows) is left out";
        }
    }
    exact = separated(group, values, bound);
    if (exact)
    {
        for (size_t i = 0; i < answer.size(); ++i)
        {
            if (group.countOf(answer[i]) != group.countAtRank(i + 1))
            {
                return answer[i] + " at position " + std::to_string(i) + " of a separated group";
            }
        }
    }
    return "";
}

std::vector<std::string> arrayAt(const ColumnView& column, size_t row)
{
    std::vector<std::string> values;
    for (uint64_t i = column.offsets[row]; i < column.offsets[row + 1]; ++i)
    {
        values.push_back(testing::printValue(testing::valueAt(column.children[0], i)));
    }
    return values;
}

TEST(TopK, MeetsSpaceSavingBoundsOnEveryMergePathAndThreadCount)
{
    std::vector<AggregateDescription> descriptions;
    for (size_t i = 0; i < kCalls.size(); ++i)
    {
        AggregateDescription description{"topK", {kCalls[i].argument}, "t" + std::to_string(i)};
        if (!kCalls[i].condition.empty())
        {
            description.function = "topKIf";
            description.arguments.push_back(kCalls[i].condition);
        }
        description.parameters = kCalls[i].parameters;
        descriptions.push_back(description);
    }
    size_t exact_checks = 0;
    for (const testing::MergePathShape& shape : testing::mergePathShapes())
    {
        const Block table = makeTable(shape);
        const BlockView input = BlockView::of(table);
        std::map<std::string, std::vector<GroupCounts>> expected;
        for (size_t row = 0; row < testing::kShapeRows; ++row)
        {
            auto& groups = expected[testing::printValue(testing::valueAt(*input.find("key"), row))];
            groups.resize(kCalls.size());
            for (size_t i = 0; i < kCalls.size(); ++i)
            {
                if (kCalls[i].condition.empty() ||
                    input.find(kCalls[i].condition)->valueAt<uint8_t>(row) != 0)
                {
                    ++groups[i].rows;
                    ++groups[i].counts[testing::printValue(
                        testing::valueAt(*input.find(kCalls[i].argument), row))];
                }
            }
        }
        for (const size_t threads : testing::kShapeThreadCounts)
        {
            SCOPED_TRACE(shape.name + " threads " + std::to_string(threads));
            const Block result = testing::aggregateOnShape(shape, input, descriptions, threads);
            ASSERT_EQ(result.rows(), expected.size());
            size_t failures = 0;
            for (size_t row = 0; row < result.rows() && failures < 5; ++row)
            {
                const std::string group =
                    testing::printValue(testing::valueAt(result.columns[0].column.view(), row));
                for (size_t i = 0; i < kCalls.size(); ++i)
                {
                    bool exact = false;
                    const std::string problem =
                        checkAnswer(kCalls[i], expected.at(group)[i],
                                    arrayAt(result.columns[1 + i].column.view(), row), exact);
                    exact_checks += exact ? 1 : 0;
                    if (!problem.empty())
                    {
                        ADD_FAILURE() << "topK(" << kCalls[i].argument << ") #" << i << " of group "
                                      << group << ": " << problem;
                        ++failures;
                    }
                }
            }
        }
    }
    // The large groups (few_groups, mixed_levels) are separated: the exact check ran.
    EXPECT_GT(exact_checks, 1000u);
}

/// A summary of `values` with `capacity` counters: value by value, or (`batched`) counted
/// exactly and merged in (addMany; short inputs still go value by value).
SpaceSaving<int64_t> summaryOf(const std::vector<int64_t>& values, uint32_t capacity, bool batched)
{
    SpaceSaving<int64_t> summary(capacity);
    if (batched)
    {
        summary.addMany(values.size(), [&](size_t i) { return values[i]; });
        return summary;
    }
    for (const int64_t value : values)
    {
        summary.add(value);
    }
    return summary;
}

std::vector<int64_t> topOf(const SpaceSaving<int64_t>& summary, size_t count)
{
    std::vector<int64_t> top;
    summary.forEachTop(count, [&](int64_t value) { top.push_back(value); });
    return top;
}

TEST(TopK, MergedSummariesKeepTheBoundOverManyRandomSplits)
{
    // Zipf-like values merged in random trees of partial summaries (built value by value or
    // batch by batch): the heaviest values stay in order wherever their counts are further
    // apart than rows / capacity.
    constexpr uint32_t kCapacity = 30;
    std::mt19937_64 random(5);
    for (int trial = 0; trial < 50; ++trial)
    {
        std::vector<int64_t> values(20'000);
        std::map<int64_t, size_t> counts;
        for (int64_t& value : values)
        {
            value = static_cast<int64_t>(1.0 / (double(random() % 100'000) / 100'000 + 0.002));
            ++counts[value];
        }
        std::vector<SpaceSaving<int64_t>> partials;
        size_t begin = 0;
        while (begin < values.size())
        {
            const size_t end = std::min(values.size(), begin + 1 + random() % 3000);
            partials.push_back(summaryOf({values.begin() + begin, values.begin() + end}, kCapacity,
                                         partials.size() % 2 == 1));
            begin = end;
        }
        while (partials.size() > 1)
        {
            const size_t a = random() % partials.size();
            size_t b = random() % (partials.size() - 1);
            b += b >= a ? 1 : 0;
            partials[a].merge(partials[b]);
            partials.erase(partials.begin() + static_cast<ptrdiff_t>(b));
        }
        const double bound = double(values.size()) / kCapacity;
        std::vector<std::pair<size_t, int64_t>> by_count;
        for (const auto& [value, count] : counts)
        {
            by_count.emplace_back(count, value);
        }
        std::sort(by_count.rbegin(), by_count.rend());
        const std::vector<int64_t> top = topOf(partials[0], kCapacity);
        // Every value more frequent than the bound has a counter.
        for (const auto& [count, value] : by_count)
        {
            if (double(count) > bound)
            {
                EXPECT_NE(std::find(top.begin(), top.end(), value), top.end())
                    << "trial " << trial << ": " << value << " (" << count << ")";
            }
        }
        // The leading values, while separated by more than the bound, come out in order.
        for (size_t i = 0;
             i + 1 < by_count.size() && double(by_count[i].first - by_count[i + 1].first) > bound;
             ++i)
        {
            ASSERT_LT(i, top.size());
            EXPECT_EQ(top[i], by_count[i].second) << "trial " << trial << " rank " << i;
        }
    }
}

TEST(TopK, SummariesOfAtMostFourValuesPerCounterAreExact)
{
    // Value v (0..399) seen v + 1 times, shuffled, into summaries of 100 counters: value by
    // value, strings in several summaries merged, and ints past the window (800 values, so
    // that the window folds). Within 4 values per counter the exact window holds every
    // count, so the top 100 are exactly 399..300 (Space-Saving alone charges the rare values
    // the smallest count and misorders them).
    constexpr uint32_t kCapacity = 100;
    constexpr int64_t kDistinct = 4 * kCapacity;
    std::mt19937_64 random(11);
    std::vector<int64_t> values;
    for (int64_t v = 0; v < kDistinct; ++v)
    {
        values.insert(values.end(), static_cast<size_t>(v + 1), v);
    }
    std::shuffle(values.begin(), values.end(), random);
    std::vector<int64_t> expected(kCapacity);
    std::iota(expected.rbegin(), expected.rend(), kDistinct - kCapacity);
    EXPECT_EQ(topOf(summaryOf(values, kCapacity, false), kCapacity), expected);

    const auto text = [](int64_t value)
    { return "value number " + std::to_string(value) + " past any inline buffer"; };
    std::vector<std::string> strings;
    for (const int64_t value : values)
    {
        strings.push_back(text(value));
    }
    SpaceSaving<std::string_view> merged(kCapacity);
    for (size_t part = 0; part < 4; ++part)
    {
        SpaceSaving<std::string_view> summary(kCapacity);
        for (size_t i = part; i < strings.size(); i += 4)
        {
            summary.add(strings[i]);
        }
        merged.merge(summary);
    }
    std::vector<std::string> top;
    merged.forEachTop(kCapacity, [&](std::string_view value) { top.emplace_back(value); });
    ASSERT_EQ(top.size(), kCapacity);
    for (size_t i = 0; i < kCapacity; ++i)
    {
        EXPECT_EQ(top[i], text(expected[i]));
    }

    // 400 more values seen once: the window folds, so counts may be over-estimated, but by
    // at most rows / counters: the leaders stay ahead of every value seen once.
    std::vector<int64_t> wide = values;
    for (int64_t v = kDistinct; v < 2 * kDistinct; ++v)
    {
        wide.push_back(v);
    }
    std::shuffle(wide.begin(), wide.end(), random);
    const double bound = double(wide.size()) / kCapacity;
    const std::vector<int64_t> wide_top = topOf(summaryOf(wide, kCapacity, false), 3);
    ASSERT_EQ(wide_top.size(), 3u);
    for (const int64_t value : wide_top)
    {
        const double count = value < kDistinct ? double(value + 1) : 1.0;
        EXPECT_GE(count + bound, double(kDistinct) - bound) << value;
    }
}

TEST(TopK, StatesRoundTripAndCorruptedOnesAreRefused)
{
    const AggregateFunctionPtr function =
        createAggregateFunction(AggregateCall{"topK", {{"x", TypeId::String}}, {2}});
    EXPECT_EQ(function->resultType(), DataType::array(TypeId::String));
    EXPECT_FALSE(function->hasTrivialDestroy());
    Arena arena;
    std::vector<char> bytes(2 * (function->stateSize() + function->stateAlignment()));
    auto place = [&](size_t i)
    {
        const size_t alignment = function->stateAlignment();
        char* start = bytes.data() + i * (function->stateSize() + alignment);
        return start + (alignment - reinterpret_cast<uintptr_t>(start) % alignment) % alignment;
    };
    function->create(place(0), arena);
    function->create(place(1), arena);
    Column input(TypeId::String);
    for (const char* value : {"b", "a", "a", "a long string past any inline buffer", "a", "b"})
    {
        input.appendString(value);
    }
    const ColumnView view = input.view();
    function->addBatchSinglePlace(&view, 0, input.size(), place(0), arena);
    std::string serialized;
    function->serialize(place(0), serialized);
    function->checkSerialized(serialized);
    function->mergeSerialized(place(1), serialized, arena);
    function->mergeSerialized(place(1), serialized, arena);
    Column result(DataType::array(TypeId::String));
    function->insertResultInto(place(1), result);
    EXPECT_EQ(arrayAt(result.view(), 0), (std::vector<std::string>{"'a'", "'b'"}));

    // Truncations, a counter past the capacity, an error not below its count, a capacity of
    // another summary, and a value twice: each a clear error naming the function.
    std::vector<std::string> corrupted;
    for (size_t length = 0; length < serialized.size(); length += 3)
    {
        corrupted.push_back(serialized.substr(0, length));
    }
    std::string too_many = serialized;
    too_many[4] = 100;
    corrupted.push_back(too_many);
    std::string other_capacity = serialized;
    other_capacity[0] = 9;
    corrupted.push_back(other_capacity);
    std::string bad_error = serialized;
    std::fill_n(bad_error.begin() + 4 + 4 + 4 + 1 + 8, 8, '\x7f');
    corrupted.push_back(bad_error);
    SpaceSaving<std::string_view> twice(6);
    for (const char* value : {"x", "y"})
    {
        twice.add(value);
    }
    std::string duplicated;
    twice.serialize(duplicated);
    duplicated.replace(duplicated.find('y'), 1, "x");
    corrupted.push_back(duplicated);
    for (const std::string& state : corrupted)
    {
        try
        {
            function->checkSerialized(state);
            ADD_FAILURE() << "accepted a corrupted state of " << state.size() << " bytes";
        }
        catch (const Exception& e)
        {
            EXPECT_EQ(e.code(), ErrorCode::kIncorrectData);
            EXPECT_NE(std::string(e.what()).find("topK"), std::string::npos) << e.what();
        }
    }
    function->destroy(place(0));
    function->destroy(place(1));
}

TEST(TopK, BadParametersAndTypesAreClearErrors)
{
    const std::vector<std::pair<std::vector<double>, std::string>> bad = {
        {{0}, "integer from 1"},
        {{-1}, "integer from 1"},
        {{2.5}, "integer from 1"},
        {{16'777'216}, "integer from 1 to 16777215"},
        {{10, 0}, "load factor"},
        {{10, 1001}, "load factor"},
        {{100'000, 1000}, "N * load_factor"},
        {{1, 2, 3}, "0 to 2 parameters, got 3"},
    };
    for (const auto& [parameters, detail] : bad)
    {
        try
        {
            createAggregateFunction(AggregateCall{"topK", {{"x", TypeId::UInt32}}, parameters});
            ADD_FAILURE() << "accepted " << detail;
        }
        catch (const Exception& e)
        {
            EXPECT_EQ(e.code(), ErrorCode::kBadArguments);
            EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(createAggregateFunction(
                     AggregateCall{"topK", {{"x", TypeId::UInt32}, {"y", TypeId::UInt32}}, {}}),
                 Exception);
}

}  // namespace
}  // namespace granary
