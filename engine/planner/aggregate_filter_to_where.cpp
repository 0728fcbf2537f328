#include "engine/planner/aggregate_filter_to_where.h"

#include <map>
#include <optional>
#include <string>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/common/ascii.h"
#include "engine/sql/aggregate_calls.h"

namespace granary
{
namespace
{

bool containsAggregate(const sql::Expression& expression)
{
    if (sql::isAggregateCall(expression))
    {
        return true;
    }
    for (const sql::ExpressionPtr& child : sql::children(expression))
    {
        if (containsAggregate(*child))
        {
            return true;
        }
    }
    return false;
}

/// Whether WHERE takes `condition` as the aggregates do: an expression of the UInt8 type their
/// conditions need (a comparison, a logical operation, IN), so that a condition of another
/// type keeps its error, and without an aggregate inside (an error of its own).
bool movableCondition(const sql::Expression& condition)
{
    using Op = sql::BinaryOperator;
    bool boolean = condition.as<sql::InList>() != nullptr;
    if (const auto* unary = condition.as<sql::UnaryOperation>())
    {
        boolean = unary->op == sql::UnaryOperator::Not;
    }
    else if (const auto* binary = condition.as<sql::BinaryOperation>())
    {
        boolean = binary->op != Op::Plus && binary->op != Op::Minus && binary->op != Op::Multiply &&
                  binary->op != Op::Divide && binary->op != Op::Modulo;
    }
    return boolean && !containsAggregate(condition);
}

/// An aggregate call split into the condition it takes its rows by and the call without it.
struct Unfiltered
{
    sql::ExpressionPtr condition;
    sql::ExpressionPtr call;
};

/// fIf(args..., c) as f(args...) with c: the name without its last "If" must resolve to the
/// same function with the same -Distinct and no -If (so "If" was the combinator).
std::optional<Unfiltered> withoutIfCombinator(const sql::FunctionCall& call,
                                              const ResolvedAggregateName& resolved,
                                              sql::SourcePosition position)
{
    const std::string_view name = call.name;
    constexpr std::string_view kIf = "If";
    if (call.arguments.empty() || name.size() <= kIf.size() ||
        !equalsIgnoringCase(name.substr(name.size() - kIf.size()), kIf))
    {
        return std::nullopt;
    }
    sql::FunctionCall stripped = call;
    stripped.name = std::string(name.substr(0, name.size() - kIf.size()));
    const ResolvedAggregateName base = resolveAggregateName(stripped.name);
    if (base.entry != resolved.entry || base.if_combinator ||
        base.distinct_combinator != resolved.distinct_combinator)
    {
        return std::nullopt;
    }
    sql::ExpressionPtr condition = stripped.arguments.back();
    stripped.arguments.pop_back();
    return Unfiltered{std::move(condition), sql::makeExpression(std::move(stripped), position)};
}

/// The condition of an aggregate with exactly one (FILTER or -If), or none.
std::optional<Unfiltered> withoutFilter(const sql::ExpressionPtr& expression)
{
    const sql::FunctionCall& call = *expression->as<sql::FunctionCall>();
    const ResolvedAggregateName resolved = resolveAggregateName(call.name);
    if (!resolved.entry || resolved.state_combinator || resolved.merge_combinator ||
        resolved.array_combinator)
    {
        return std::nullopt;
    }
    if (!call.filter)
    {
        return resolved.if_combinator ? withoutIfCombinator(call, resolved, expression->position)
                                      : std::nullopt;
    }
    if (resolved.if_combinator)
    {
        return std::nullopt;  // Two conditions.
    }
    sql::FunctionCall stripped = call;
    stripped.filter = nullptr;
    return Unfiltered{call.filter, sql::makeExpression(std::move(stripped), expression->position)};
}

}  // namespace

bool moveSharedAggregateFilterToWhere(sql::SelectStatement& select)
{
    if (!select.group_by.empty() || select.grouping != sql::Grouping::kKeys ||
        !select.grouping_sets.empty() || select.with_totals || select.array_join)
    {
        return false;
    }
    const std::vector<sql::AggregateCall> aggregates = sql::collectAggregates(select);
    if (aggregates.empty())
    {
        return false;
    }
    sql::ExpressionPtr condition;
    std::map<std::string, sql::ExpressionPtr> unfiltered_calls;  // by aggregateKey
    for (const sql::AggregateCall& aggregate : aggregates)
    {
        std::optional<Unfiltered> unfiltered = withoutFilter(aggregate.call);
        if (!unfiltered || !movableCondition(*unfiltered->condition) ||
            (condition && !sql::sameExpression(condition, unfiltered->condition)))
        {
            return false;
        }
        condition = unfiltered->condition;
        unfiltered_calls.emplace(aggregate.key, unfiltered->call);
    }
    const auto unfilter = [&](const sql::ExpressionPtr& expression)
    {
        const sql::FunctionCall* call = expression->as<sql::FunctionCall>();
        if (call == nullptr || !sql::isAggregateCall(*expression))
        {
            return expression;
        }
        const auto found = unfiltered_calls.find(sql::aggregateKey(*call));
        return found == unfiltered_calls.end() ? expression : found->second;
    };
    sql::rewriteExpressions(select, [&](const sql::ExpressionPtr& expression)
                            { return sql::transformBottomUp(expression, unfilter); });
    select.where = select.where ? sql::makeExpression(sql::BinaryOperation{sql::BinaryOperator::And,
                                                                           select.where, condition},
                                                      condition->position)
                                : condition;
    return true;
}

}  // namespace granary
