#include "engine/aggregation/group_by_plan.h"

#include <algorithm>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/functions/array_combinator.h"
#include "engine/aggregation/functions/distinct_combinator.h"
#include "engine/aggregation/functions/masked.h"
#include "engine/aggregation/functions/merge_state.h"
#include "engine/aggregation/functions/state_result.h"
#include "engine/common/ascii.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// The position of column `name` among `columns`.
size_t resolveColumn(const std::vector<InputColumn>& columns, const std::string& name,
                     std::string_view role)
{
    for (size_t i = 0; i < columns.size(); ++i)
    {
        if (columns[i].name == name)
        {
            return i;
        }
    }
    throw Exception(ErrorCode::kUnknownColumn,
                    "unknown column '" + name + "' in " + std::string(role));
}

/// Strips the -If combinator's condition, the last of `arguments` (UInt8).
void takeCondition(const AggregateDescription& aggregate, std::vector<AggregateArgument>& arguments)
{
    if (arguments.empty())
    {
        throw Exception(ErrorCode::kBadArguments,
                        "aggregate function " + aggregate.function +
                            " takes its condition as its last argument, got no arguments");
    }
    if (arguments.back().type != TypeId::UInt8)
    {
        throw Exception(ErrorCode::kTypeMismatch, "the condition of " + aggregate.function + " ('" +
                                                      arguments.back().name +
                                                      "') must be UInt8, not " +
                                                      std::string(typeName(arguments.back().type)));
    }
    arguments.pop_back();
}

/// `error` with where `aggregate` was written, if known.
Exception withOrigin(const Exception& error, const AggregateDescription& aggregate)
{
    return aggregate.origin.empty()
               ? error
               : Exception(error.code(), std::string(error.what()) + " at " + aggregate.origin);
}

/// f of `call`, or with -Distinct f over the distinct values of its one argument (f itself
/// where `entry` ignores duplicates).
AggregateFunctionPtr createWithDistinct(const AggregateDescription& aggregate,
                                        const AggregateCall& call,
                                        const AggregateFunctionEntry& entry,
                                        bool distinct_combinator)
{
    if (!distinct_combinator || entry.ignores_duplicates)
    {
        return createAggregateFunction(call);
    }
    if (call.arguments.size() != 1)
    {
        throw Exception(ErrorCode::kBadArguments, "aggregate function " + aggregate.function +
                                                      " takes 1 argument, got " +
                                                      std::to_string(call.arguments.size()));
    }
    AggregateFunctionPtr set =
        createAggregateFunction(AggregateCall{"uniqExact", call.arguments, {}, call.distinct});
    return makeDistinctCombinator(std::move(set), createAggregateFunction(call),
                                  call.arguments[0].type);
}

/// The function of `aggregate` over the columns of `arguments`, with its -If and -Distinct
/// combinators resolved: fIf(args..., cond) is f(args...) masked by cond, the last argument
/// column; fDistinct(x) is f over x's distinct values.
AggregateFunctionPtr createCombined(const AggregateDescription& aggregate,
                                    const ResolvedAggregateName& resolved,
                                    std::vector<AggregateArgument> arguments,
                                    const DistinctSettings& distinct, bool& empty_is_null)
{
    empty_is_null = resolved.entry->empty_is_null;
    if (resolved.if_combinator)
    {
        takeCondition(aggregate, arguments);
    }
    const size_t function_arguments = arguments.size();
    AggregateFunctionPtr function =
        createWithDistinct(aggregate,
                           AggregateCall{std::string(resolved.base_name), std::move(arguments),
                                         aggregate.parameters, distinct},
                           *resolved.entry, resolved.distinct_combinator);
    if (resolved.array_combinator)
    {
        // Inside the -If: the condition keeps or drops a row's whole arrays.
        function =
            std::make_shared<ArrayCombinatorFunction>(std::move(function), function_arguments);
    }
    if (resolved.if_combinator)
    {
        // ClickHouse: sumIf over no matching row is 0, not NULL.
        function = std::make_shared<MaskedAggregateFunction>(std::move(function),
                                                             function_arguments, false);
    }
    return function;
}

/// The arguments a state's function was made over, as its AggregateFunction type lists them.
std::vector<AggregateArgument> stateArguments(const DataType& state_type)
{
    std::vector<AggregateArgument> arguments;
    for (size_t i = 0; i < state_type.state_arguments.size(); ++i)
    {
        // fArray's states are f's over the elements: Array(T) as ClickHouse spells it means T.
        const DataType& argument = state_type.state_arguments[i];
        arguments.push_back(
            {"argument " + std::to_string(i + 1) + " of " + dataTypeName(state_type),
             argument.id == TypeId::Array ? argument.element().id : argument.id});
    }
    return arguments;
}

/// fMerge(states): f (with its -If and -Distinct) made as the states' type says, folding each
/// row's state, checked as it is read (states in a table may be damaged).
AggregateFunctionPtr createMerge(const AggregateDescription& aggregate,
                                 const ResolvedAggregateName& resolved,
                                 const std::vector<AggregateArgument>& arguments,
                                 const DistinctSettings& distinct, bool& empty_is_null)
{
    if (arguments.size() != 1 || arguments[0].type != TypeId::String || !aggregate.merged_state)
    {
        throw Exception(ErrorCode::kBadArguments, "aggregate function " + aggregate.function +
                                                      " takes one column of AggregateFunction(" +
                                                      std::string(resolved.stateful_name) +
                                                      ", ...) states");
    }
    const DataType& state_type = *aggregate.merged_state;
    if (!equalsIgnoringCase(state_type.state_function, resolved.stateful_name))
    {
        throw Exception(ErrorCode::kTypeMismatch, "aggregate function " + aggregate.function +
                                                      " cannot merge column '" + arguments[0].name +
                                                      "' of type " + dataTypeName(state_type));
    }
    if (!aggregate.parameters.empty() && aggregate.parameters != state_type.state_parameters)
    {
        throw Exception(ErrorCode::kBadArguments, "aggregate function " + aggregate.function +
                                                      " takes the parameters of its states' type " +
                                                      dataTypeName(state_type) + " or none");
    }
    AggregateDescription inner = aggregate;
    inner.parameters = state_type.state_parameters;
    return std::make_shared<MergeStateFunction>(
        createCombined(inner, resolved, stateArguments(state_type), distinct, empty_is_null),
        arguments[0].name, /*checks_states=*/true);
}

/// The function of `aggregate` over the columns of `arguments`, with its combinators
/// resolved (see ResolvedAggregateName).
AggregateFunctionPtr createFunction(const AggregateDescription& aggregate,
                                    std::vector<AggregateArgument> arguments,
                                    const DistinctSettings& distinct, bool& empty_is_null)
{
    const ResolvedAggregateName resolved = resolveAggregateName(aggregate.function);
    if (resolved.entry == nullptr)
    {
        throw Exception(ErrorCode::kUnknownFunction,
                        "unknown aggregate function '" + aggregate.function + "'");
    }
    if (resolved.merge_combinator)
    {
        return createMerge(aggregate, resolved, arguments, distinct, empty_is_null);
    }
    std::vector<DataType> argument_types;
    for (const AggregateArgument& argument : arguments)
    {
        argument_types.emplace_back(argument.type);
    }
    AggregateFunctionPtr function =
        createCombined(aggregate, resolved, std::move(arguments), distinct, empty_is_null);
    if (resolved.state_combinator)
    {
        empty_is_null = false;  // A group without rows has the empty state.
        function = std::make_shared<StateResultFunction>(
            std::move(function),
            DataType::aggregateState(std::string(resolved.stateful_name), aggregate.parameters,
                                     std::move(argument_types)));
    }
    return function;
}

}  // namespace

AggregateFunctionPtr createStateFunction(const DataType& state_type,
                                         const DistinctSettings& distinct)
{
    const ResolvedAggregateName resolved = resolveAggregateName(state_type.state_function);
    if (resolved.entry == nullptr || resolved.state_combinator || resolved.merge_combinator)
    {
        throw Exception(ErrorCode::kUnknownFunction, "unknown aggregate function '" +
                                                         state_type.state_function + "' in " +
                                                         dataTypeName(state_type));
    }
    AggregateDescription description{state_type.state_function, {}, "state"};
    description.parameters = state_type.state_parameters;
    bool empty_is_null = true;
    return createCombined(description, resolved, stateArguments(state_type), distinct,
                          empty_is_null);
}

std::unique_ptr<GroupByPlan> makeGroupByPlan(std::vector<InputColumn> columns,
                                             const std::vector<std::string>& keys,
                                             const std::vector<AggregateDescription>& aggregates,
                                             const AggregationSettings& settings, bool inline_count)
{
    auto plan = std::make_unique<GroupByPlan>();
    plan->input_columns = std::move(columns);
    for (const std::string& key : keys)
    {
        const size_t column = resolveColumn(plan->input_columns, key, "GROUP BY");
        if (isNested(plan->input_columns[column].type.id))
        {
            throw Exception(ErrorCode::kNotImplemented,
                            "GROUP BY an Array or Map ('" + key + "') is not supported");
        }
        plan->key_columns.push_back(column);
        plan->key_types.push_back(plan->input_columns[column].type);
        plan->key_names.push_back(key);
    }
    std::vector<AggregateLayout::Entry> entries;
    DistinctSettings distinct = settings.distinct;
    distinct.route_large_sets = settings.partition_high_cardinality;
    for (const AggregateDescription& aggregate : aggregates)
    {
        AggregateLayout::Entry entry;
        std::vector<AggregateArgument> arguments;
        const ResolvedAggregateName resolved = resolveAggregateName(aggregate.function);
        for (size_t a = 0; a < aggregate.arguments.size(); ++a)
        {
            const std::string& argument = aggregate.arguments[a];
            const size_t column =
                resolveColumn(plan->input_columns, argument, "arguments of " + aggregate.function);
            const DataType& type = plan->input_columns[column].type;
            // fArray takes Arrays (all but an -If condition) and f sees their elements.
            const bool array_argument =
                resolved.array_combinator && !resolved.merge_combinator &&
                !(resolved.if_combinator && a + 1 == aggregate.arguments.size());
            const bool taken = array_argument
                                   ? type.id == TypeId::Array && !isNested(type.element().id)
                                   : !isNested(type.id);
            if (!taken)
            {
                throw withOrigin(Exception(ErrorCode::kTypeMismatch,
                                           aggregate.function + " does not take '" + argument +
                                               "' of type " + dataTypeName(type)),
                                 aggregate);
            }
            entry.argument_columns.push_back(column);
            arguments.push_back({argument, array_argument ? type.element().id : type.id});
        }
        bool empty_is_null = true;
        try
        {
            entry.function = createFunction(aggregate, arguments, distinct, empty_is_null);
        }
        catch (const Exception& error)
        {
            throw withOrigin(error, aggregate);
        }
        if (!aggregate.mask.empty())
        {
            const size_t mask = resolveColumn(plan->input_columns, aggregate.mask,
                                              "the mask of " + aggregate.function);
            if (plan->input_columns[mask].type != TypeId::UInt8)
            {
                throw Exception(ErrorCode::kTypeMismatch,
                                "the filter of " + aggregate.function + " ('" + aggregate.mask +
                                    "') must be UInt8, not " +
                                    dataTypeName(plan->input_columns[mask].type));
            }
            entry.function = std::make_shared<MaskedAggregateFunction>(
                std::move(entry.function), arguments.size(),
                empty_is_null && aggregate.null_without_values);
            entry.argument_columns.push_back(mask);
        }
        entry.result_name =
            aggregate.result_name.empty() ? aggregate.function : aggregate.result_name;
        entries.push_back(std::move(entry));
    }
    plan->layout = std::make_unique<AggregateLayout>(std::move(entries), inline_count);
    return plan;
}

std::unique_ptr<GroupByPlan> makeStateMergePlan(const GroupByPlan& plan,
                                                std::vector<InputColumn> columns, bool by_keys)
{
    auto merge = std::make_unique<GroupByPlan>();
    merge->input_columns = std::move(columns);
    if (by_keys)
    {
        merge->key_names = plan.key_names;
        merge->key_types = plan.key_types;
    }
    for (const std::string& key : merge->key_names)
    {
        merge->key_columns.push_back(resolveColumn(merge->input_columns, key, "GROUP BY"));
    }
    std::vector<AggregateLayout::Entry> entries;
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        AggregateLayout::Entry merging;
        merging.argument_columns.push_back(
            resolveColumn(merge->input_columns, entry.result_name, "the partial states"));
        merging.function = std::make_shared<MergeStateFunction>(entry.function, entry.result_name);
        merging.result_name = entry.result_name;
        entries.push_back(std::move(merging));
    }
    merge->layout = std::make_unique<AggregateLayout>(std::move(entries), false);
    return merge;
}

GroupByPlan::Top resolveTop(const TopGroups& top, const GroupByPlan& plan)
{
    GroupByPlan::Top resolved;
    resolved.rows = top.rows;
    const auto& entries = plan.layout->entries();
    for (const TopGroups::OrderColumn& column : top.order)
    {
        size_t position = 0;
        const auto key = std::find(plan.key_names.begin(), plan.key_names.end(), column.name);
        if (key != plan.key_names.end())
        {
            position = static_cast<size_t>(key - plan.key_names.begin());
        }
        else
        {
            const auto aggregate = std::find_if(entries.begin(), entries.end(),
                                                [&](const AggregateLayout::Entry& entry)
                                                { return entry.result_name == column.name; });
            if (aggregate == entries.end())
            {
                throw Exception(ErrorCode::kUnknownColumn,
                                "unknown column '" + column.name + "' in the order of top groups");
            }
            position = plan.key_names.size() + static_cast<size_t>(aggregate - entries.begin());
        }
        resolved.order.emplace_back(position, column.descending);
    }
    return resolved;
}

/// A result of its argument's type (min, max, any...) keeps a DateTime64 argument's
/// precision, which TypeId results do not carry.
DataType resultDataType(const GroupByPlan& plan, const AggregateLayout::Entry& entry)
{
    const DataType type = plan.output == AggregateOutput::kStates ? DataType(TypeId::String)
                                                                  : entry.function->resultType();
    if (type.id == TypeId::DateTime64)
    {
        for (const size_t argument : entry.argument_columns)
        {
            if (plan.input_columns[argument].type.id == TypeId::DateTime64)
            {
                return plan.input_columns[argument].type;
            }
        }
    }
    return type;
}

Block emptyResult(const GroupByPlan& plan)
{
    Block block;
    for (size_t k = 0; k < plan.key_types.size(); ++k)
    {
        block.columns.push_back({plan.key_names[k], Column(plan.key_types[k])});
    }
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        block.columns.push_back({entry.result_name, Column(resultDataType(plan, entry))});
    }
    if (plan.output == AggregateOutput::kResultsAndStates)
    {
        for (const AggregateLayout::Entry& entry : plan.layout->entries())
        {
            block.columns.push_back({stateColumnName(entry.result_name), Column(TypeId::String)});
        }
    }
    return block;
}

std::string stateColumnName(std::string_view result)
{
    // \x01 keeps it apart from any name a query can write (hidden columns' convention).
    return "\x01state of " + std::string(result);
}

const MaskedAggregateFunction* maskedDistinctCount(const AggregateLayout::Entry& entry)
{
    const auto* masked = dynamic_cast<const MaskedAggregateFunction*>(entry.function.get());
    return masked != nullptr && !masked->resultMayBeNull() ? masked : nullptr;
}

bool isKeyWithDistinctCount(const GroupByPlan& plan, const DistinctSettings& settings)
{
    const auto& entries = plan.layout->entries();
    if (plan.key_columns.size() != 1 || entries.size() != 1)
    {
        return false;
    }
    // uniqExact itself, or over the rows a mask keeps; no other combinator around it.
    const MaskedAggregateFunction* masked = maskedDistinctCount(entries[0]);
    const AggregateFunction& counted = masked != nullptr ? masked->inner() : *entries[0].function;
    return (settings.string_key_value_buckets || !isString(plan.key_types[0].id)) &&
           isDistinctCountName(counted.name()) &&
           dynamic_cast<const WrappedAggregateFunction*>(&counted) == nullptr &&
           !isString(plan.input_columns[entries[0].argument_columns[0]].type.id);
}

}  // namespace granary
