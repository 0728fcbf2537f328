#include "engine/aggregation/aggregate_function_factory.h"

#include <algorithm>
#include <memory>

#include "engine/aggregation/functions/avg.h"
#include "engine/aggregation/functions/count.h"
#include "engine/aggregation/functions/min_max_any.h"
#include "engine/aggregation/functions/quantile_functions.h"
#include "engine/aggregation/functions/statistics_functions.h"
#include "engine/aggregation/functions/sum.h"
#include "engine/aggregation/functions/group_array.h"
#include "engine/aggregation/functions/top_k.h"
#include "engine/aggregation/functions/uniq_exact.h"
#include "engine/aggregation/functions/uniq_sketch_functions.h"
#include "engine/common/ascii.h"
#include "engine/common/describe_count.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// The combinators' suffixes.
constexpr std::string_view kIfSuffix = "if";
constexpr std::string_view kDistinctSuffix = "distinct";
constexpr std::string_view kStateSuffix = "state";
constexpr std::string_view kMergeSuffix = "merge";
constexpr std::string_view kArraySuffix = "array";

/// `name` without `suffix` (any case), or nullopt when it does not end with it.
std::optional<std::string_view> withoutSuffix(std::string_view name, std::string_view suffix)
{
    if (name.size() > suffix.size() &&
        equalsIgnoringCase(name.substr(name.size() - suffix.size()), suffix))
    {
        return name.substr(0, name.size() - suffix.size());
    }
    return std::nullopt;
}

template <template <typename> class Function>
AggregateFunctionPtr numeric(const AggregateCall& call)
{
    const AggregateArgument& argument = call.arguments[0];
    const TypeId type = argument.type;
    if (isString(type) || type == TypeId::Date || type == TypeId::DateTime)
    {
        throwAggregateTypeMismatch(call, argument, "a number");
    }
    return dispatchFixedType(type,
                             [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                             { return std::make_shared<Function<T>>(); });
}

template <typename Keep>
AggregateFunctionPtr chosenValue(const AggregateCall& call)
{
    const TypeId type = call.arguments[0].type;
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                        { return std::make_shared<ChosenValueFunction<T, Keep>>(type); });
}

AggregateFunctionPtr uniqExact(const AggregateCall& call)
{
    return dispatchType(
        call.arguments[0].type,
        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
        {
            if constexpr (std::is_same_v<T, std::string_view>)
            {
                return std::make_shared<UniqExactFunction<StringDistinctTraits>>(call.distinct);
            }
            else
            {
                return std::make_shared<UniqExactFunction<NumberDistinctTraits<T>>>(call.distinct);
            }
        });
}

/// count, sum, avg, min, max, any and uniqExact.
void addBasicFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    const std::string value_state = "the value (strings: 16 bytes and the bytes)";
    entries.push_back(
        {.name = "count",
         .signature = "count(), count(*), count(x)",
         .result = "UInt64",
         .exactness = "exact",
         .state = "8 bytes",
         .merge = "O(1)",
         .min_arguments = 0,
         .empty_is_null = false,
         .create = [](const AggregateCall&) { return std::make_shared<CountFunction>(); }});
    entries.push_back({.name = "sum",
                       .signature = "sum(x)",
                       .result = "Int64 / UInt64 / Float64 (an error where an integer sum "
                                 "overflows; sumWithOverflow wraps)",
                       .exactness = "exact for integers (128-bit sum)",
                       .state = "16 bytes (floats: 8)",
                       .merge = "O(1)",
                       .create = createSum});
    entries.push_back({.name = "avg",
                       .signature = "avg(x)",
                       .result = "Float64",
                       .exactness = "exact for integers (128-bit sum)",
                       .state = "24 bytes",
                       .merge = "O(1)",
                       .create = numeric<AvgFunction>});
    entries.push_back({.name = "min",
                       .signature = "min(x)",
                       .result = "the argument's type",
                       .exactness = "exact",
                       .state = value_state,
                       .merge = "O(1)",
                       .ignores_duplicates = true,
                       .create = chosenValue<KeepMinimum>});
    entries.push_back({.name = "max",
                       .signature = "max(x)",
                       .result = "the argument's type",
                       .exactness = "exact",
                       .state = value_state,
                       .merge = "O(1)",
                       .ignores_duplicates = true,
                       .create = chosenValue<KeepMaximum>});
    entries.push_back({.name = "any",
                       .signature = "any(x)",
                       .result = "the argument's type",
                       .exactness = "some row's value",
                       .state = value_state,
                       .merge = "O(1)",
                       .ignores_duplicates = true,
                       .create = chosenValue<KeepFirst>});
    entries.push_back({.name = "uniqExact",
                       .aliases = {"count_distinct", "countDistinct"},
                       .signature = "uniqExact(x), count(DISTINCT x)",
                       .result = "UInt64",
                       .exactness = "exact",
                       .state = "a hash set of the distinct values",
                       .merge = "O(distinct values)",
                       .empty_is_null = false,
                       .ignores_duplicates = true,
                       .create = uniqExact});
}

std::vector<AggregateFunctionEntry> makeRegistry()
{
    std::vector<AggregateFunctionEntry> entries;
    addBasicFunctions(entries);
    addStatisticsFunctions(entries);
    addQuantileFunctions(entries);
    addUniqSketchFunctions(entries);
    addTopKFunctions(entries);
    addGroupArrayFunctions(entries);
    return entries;
}

void checkCounts(const AggregateFunctionEntry& entry, const AggregateCall& call)
{
    if (call.arguments.size() < entry.min_arguments || call.arguments.size() > entry.max_arguments)
    {
        throwBadAggregateCall(
            call, describeCount(entry.min_arguments, entry.max_arguments, "argument") + ", got " +
                      std::to_string(call.arguments.size()));
    }
    if (call.parameters.size() < entry.min_parameters ||
        call.parameters.size() > entry.max_parameters)
    {
        throwBadAggregateCall(
            call, describeCount(entry.min_parameters, entry.max_parameters, "parameter") +
                      ", got " + std::to_string(call.parameters.size()));
    }
}

}  // namespace

void throwBadAggregateCall(const AggregateCall& call, const std::string& what)
{
    throw Exception(ErrorCode::kBadArguments, "aggregate function " + call.name + " takes " + what);
}

void throwAggregateTypeMismatch(const AggregateCall& call, const AggregateArgument& argument,
                                std::string_view expected)
{
    throw Exception(ErrorCode::kTypeMismatch,
                    "aggregate function " + call.name + " cannot take column '" + argument.name +
                        "' of type " + std::string(typeName(argument.type)) + ": expected " +
                        std::string(expected));
}

const std::vector<AggregateFunctionEntry>& aggregateFunctions()
{
    static const std::vector<AggregateFunctionEntry> registry = makeRegistry();
    return registry;
}

const AggregateFunctionEntry* findAggregateFunction(std::string_view name)
{
    for (const AggregateFunctionEntry& entry : aggregateFunctions())
    {
        if (equalsIgnoringCase(entry.name, name) ||
            std::any_of(entry.aliases.begin(), entry.aliases.end(),
                        [&](const std::string& alias) { return equalsIgnoringCase(alias, name); }))
        {
            return &entry;
        }
    }
    return nullptr;
}

ResolvedAggregateName resolveAggregateName(std::string_view name)
{
    ResolvedAggregateName resolved;
    if (const std::optional<std::string_view> base = withoutSuffix(name, kStateSuffix))
    {
        resolved.state_combinator = findAggregateFunction(name) == nullptr;
        name = resolved.state_combinator ? *base : name;
    }
    else if (const std::optional<std::string_view> merged = withoutSuffix(name, kMergeSuffix))
    {
        resolved.merge_combinator = findAggregateFunction(name) == nullptr;
        name = resolved.merge_combinator ? *merged : name;
    }
    resolved.stateful_name = name;
    if (const std::optional<std::string_view> base = withoutSuffix(name, kIfSuffix))
    {
        resolved.if_combinator = findAggregateFunction(name) == nullptr;
        name = resolved.if_combinator ? *base : name;
    }
    if (const std::optional<std::string_view> base = withoutSuffix(name, kDistinctSuffix))
    {
        resolved.distinct_combinator = findAggregateFunction(name) == nullptr;
        name = resolved.distinct_combinator ? *base : name;
    }
    // groupArray is a function of its own; groupArrayArray is groupArray over elements.
    if (const std::optional<std::string_view> base = withoutSuffix(name, kArraySuffix))
    {
        resolved.array_combinator = findAggregateFunction(name) == nullptr;
        name = resolved.array_combinator ? *base : name;
    }
    resolved.entry = findAggregateFunction(name);
    resolved.base_name = name;
    return resolved;
}

AggregateFunctionPtr createAggregateFunction(const AggregateCall& call)
{
    const AggregateFunctionEntry* entry = findAggregateFunction(call.name);
    if (entry == nullptr)
    {
        throw Exception(ErrorCode::kUnknownFunction,
                        "unknown aggregate function '" + call.name + "'");
    }
    checkCounts(*entry, call);
    return entry->create(call);
}

AggregateFunctionPtr createAggregateFunction(std::string_view function,
                                             const std::vector<AggregateArgument>& arguments,
                                             const DistinctSettings& distinct_settings)
{
    return createAggregateFunction(
        AggregateCall{std::string(function), arguments, {}, distinct_settings});
}

bool isAggregateFunctionName(std::string_view function)
{
    return resolveAggregateName(function).entry != nullptr;
}

bool isDistinctCountName(std::string_view function)
{
    const std::string name = lowerCaseAscii(function);
    return name == "uniqexact" || name == "count_distinct" || name == "countdistinct";
}

}  // namespace granary
