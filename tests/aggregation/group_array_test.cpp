// groupArray and groupUniqArray through the Aggregator on every merge path and thread count,
// against each group's values gathered here: the same multiset (groupArray), the same set
// (groupUniqArray), and with N, N of them (or all where fewer) drawn from it; -If, NaN as
// one value, the state format and the parameter errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/aggregator.h"
#include "engine/common/exception.h"
#include "merge_path_shapes.h"
#include "reference_aggregator.h"

namespace granary
{
namespace
{

struct CollectCall
{
    std::string function;  ///< groupArray, groupUniqArray (or their -If).
    std::vector<double> parameters;
    std::string argument;
    std::string condition = {};

    bool unique() const { return function.starts_with("groupUniqArray"); }
    size_t limit() const
    {
        return parameters.empty() ? std::numeric_limits<size_t>::max() : size_t(parameters[0]);
    }
};

const std::vector<CollectCall> kCalls = {
    {"groupArray", {}, "v_int"},      {"groupArray", {}, "v_str"},
    {"groupArray", {3}, "v_int"},     {"groupArrayIf", {}, "v_int", "c_some"},
    {"groupUniqArray", {}, "v_str"},  {"groupUniqArray", {}, "v_float"},
    {"groupUniqArray", {2}, "v_int"},
};

/// Values repeat within a group (a few dozen distinct per column); floats include NaN and
/// both zeros, which count once each way groupUniqArray compares.
Block makeTable(const testing::MergePathShape& shape)
{
    Column key(TypeId::UInt64);
    Column v_int(TypeId::Int64);
    Column v_str(TypeId::String);
    Column v_float(TypeId::Float64);
    Column c_some(TypeId::UInt8);
    for (size_t row = 0; row < testing::kShapeRows; ++row)
    {
        key.append(shape.group_of(row));
        const int64_t value = static_cast<int64_t>((row * 2654435761u) % 37) - 18;
        v_int.append(value);
        v_str.appendString(value % 2 == 0 ? std::to_string(value)
                                          : "a longer string value " + std::to_string(value));
        const double real = value == 5    ? std::numeric_limits<double>::quiet_NaN()
                            : value == -7 ? -0.0
                                          : double(value % 9) / 2;
        v_float.append(real);
        c_some.append(static_cast<uint8_t>(row % 3 != 0));
    }
    Block table;
    table.columns.push_back({"key", std::move(key)});
    table.columns.push_back({"v_int", std::move(v_int)});
    table.columns.push_back({"v_str", std::move(v_str)});
    table.columns.push_back({"v_float", std::move(v_float)});
    table.columns.push_back({"c_some", std::move(c_some)});
    return table;
}

/// A printed value as groupUniqArray compares it: every NaN one, -0 as 0.
std::string canonical(std::string printed)
{
    if (printed == "-nan" || printed == "nan")
    {
        return "nan";
    }
    return printed == "-0" ? "0" : printed;
}

std::vector<std::string> arrayAt(const ColumnView& column, size_t row)
{
    std::vector<std::string> values;
    for (uint64_t i = column.offsets[row]; i < column.offsets[row + 1]; ++i)
    {
        values.push_back(canonical(testing::printValue(testing::valueAt(column.children[0], i))));
    }
    return values;
}

/// The problem with one group's answer, or "": `values` are the group's kept values in any
/// order (every one for groupArray, each distinct one once for groupUniqArray).
std::string checkAnswer(const CollectCall& call, std::vector<std::string> values,
                        std::vector<std::string> answer)
{
    if (call.unique())
    {
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
    }
    std::sort(values.begin(), values.end());
    std::sort(answer.begin(), answer.end());
    if (answer.size() != std::min(call.limit(), values.size()))
    {
        return std::to_string(answer.size()) + " values of " + std::to_string(values.size());
    }
    // Every answer value is one of the group's, as often as it occurs there at most.
    if (!std::includes(values.begin(), values.end(), answer.begin(), answer.end()))
    {
        return "values that are not the group's";
    }
    return "";
}

TEST(GroupArray, CollectsEveryValueOnEveryMergePathAndThreadCount)
{
    std::vector<AggregateDescription> descriptions;
    for (size_t i = 0; i < kCalls.size(); ++i)
    {
        AggregateDescription description{
            kCalls[i].function, {kCalls[i].argument}, "a" + std::to_string(i)};
        if (!kCalls[i].condition.empty())
        {
            description.arguments.push_back(kCalls[i].condition);
        }
        description.parameters = kCalls[i].parameters;
        descriptions.push_back(description);
    }
    for (const testing::MergePathShape& shape : testing::mergePathShapes())
    {
        const Block table = makeTable(shape);
        const BlockView input = BlockView::of(table);
        std::map<std::string, std::vector<std::vector<std::string>>> expected;
        for (size_t row = 0; row < testing::kShapeRows; ++row)
        {
            auto& group = expected[testing::printValue(testing::valueAt(*input.find("key"), row))];
            group.resize(kCalls.size());
            for (size_t i = 0; i < kCalls.size(); ++i)
            {
                if (kCalls[i].condition.empty() ||
                    input.find(kCalls[i].condition)->valueAt<uint8_t>(row) != 0)
                {
                    group[i].push_back(canonical(testing::printValue(
                        testing::valueAt(*input.find(kCalls[i].argument), row))));
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
                    const std::string problem =
                        checkAnswer(kCalls[i], expected.at(group)[i],
                                    arrayAt(result.columns[1 + i].column.view(), row));
                    if (!problem.empty())
                    {
                        ADD_FAILURE() << kCalls[i].function << "(" << kCalls[i].argument
                                      << ") of group " << group << ": " << problem;
                        ++failures;
                    }
                }
            }
        }
    }
}

TEST(GroupArray, StatesRoundTripAndDamageIsAnError)
{
    for (const bool unique : {false, true})
    {
        const AggregateFunctionPtr function = createAggregateFunction(
            unique ? "groupUniqArray" : "groupArray", {{"s", TypeId::String}});
        Arena arena;
        std::vector<char> place(function->stateSize() + 64);
        char* state = place.data();
        function->create(state, arena);
        Column input(TypeId::String);
        for (const char* value : {"x", "y", "x", "a much longer value than the inline size"})
        {
            input.appendString(value);
        }
        const ColumnView view = input.view();
        function->addBatchSinglePlace(&view, 0, input.size(), state, arena);
        std::string bytes;
        function->serialize(state, bytes);

        std::vector<char> other_place(function->stateSize() + 64);
        char* other = other_place.data();
        function->create(other, arena);
        function->mergeSerialized(other, bytes, arena);
        Column first(function->resultType());
        Column second(function->resultType());
        function->insertResultInto(state, first);
        function->insertResultInto(other, second);
        EXPECT_EQ(arrayAt(first.view(), 0), arrayAt(second.view(), 0));
        EXPECT_EQ(arrayAt(first.view(), 0).size(), unique ? 3u : 4u);

        EXPECT_THROW(function->checkSerialized(bytes.substr(0, bytes.size() - 1)), Exception);
        function->destroy(state);
        function->destroy(other);
    }
}

TEST(GroupArray, NIsAPositiveInteger)
{
    for (const double bad : {0.0, -1.0, 2.5, 1e10})
    {
        AggregateCall call{"groupArray", {{"x", TypeId::UInt8}}, {bad}};
        EXPECT_THROW(createAggregateFunction(call), Exception) << bad;
    }
}

}  // namespace
}  // namespace granary
