#include "engine/sql/aggregate_calls.h"

#include <algorithm>
#include <unordered_set>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/sql/formatter.h"
#include "engine/sql/keywords.h"

namespace granary::sql
{
namespace
{

class AggregateCollector
{
public:
    void visit(const ExpressionPtr& expression)
    {
        if (isAggregateCall(*expression))
        {
            std::string key = aggregateKey(*expression->as<FunctionCall>());
            if (seen_.insert(key).second)
            {
                calls_.push_back({std::move(key), expression});
            }
            return;
        }
        for (const ExpressionPtr& child : children(*expression))
        {
            visit(child);
        }
    }

    std::vector<AggregateCall> take() { return std::move(calls_); }

private:
    std::unordered_set<std::string> seen_;
    std::vector<AggregateCall> calls_;
};

}  // namespace

bool isAggregateCall(const Expression& expression)
{
    const auto* call = expression.as<FunctionCall>();
    return call && isAggregateFunctionName(call->name);
}

std::string aggregateKey(const FunctionCall& call)
{
    FunctionCall lowered = call;
    lowered.name = lowerCaseAscii(call.name);
    return formatExpression(*makeExpression(std::move(lowered)));
}

std::vector<AggregateCall> collectAggregates(const SelectStatement& select)
{
    AggregateCollector collector;
    for (const SelectItem& item : select.items)
    {
        collector.visit(item.expression);
    }
    if (select.having)
    {
        collector.visit(select.having);
    }
    for (const OrderByItem& item : select.order_by)
    {
        collector.visit(item.expression);
    }
    return collector.take();
}

size_t countDistinctAggregates(const SelectStatement& select, std::string_view function)
{
    const std::vector<AggregateCall> calls = collectAggregates(select);
    return std::count_if(
        calls.begin(), calls.end(),
        [&](const AggregateCall& aggregate)
        { return equalsIgnoringCase(aggregate.call->as<FunctionCall>()->name, function); });
}

}  // namespace granary::sql
