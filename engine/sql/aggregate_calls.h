#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/sql/expression.h"
#include "engine/sql/statement.h"

namespace granary::sql
{

/// True for a call of an aggregate function (count, sum, avg, min, max, any, uniqExact, uniq,
/// count_distinct: the names engine/aggregation's factory knows, in any case).
bool isAggregateCall(const Expression& expression);

/// The text that identifies what an aggregate call computes: its canonical SQL with the
/// (case-insensitive) function name in lower case, so SUM(x) and sum(x) share one key.
std::string aggregateKey(const FunctionCall& call);

struct AggregateCall
{
    std::string key;
    ExpressionPtr call;  ///< The first occurrence.
};

/// The distinct aggregate calls of a SELECT's items, HAVING and ORDER BY, by aggregateKey, in
/// order of first appearance: what a planner computes, each once. Arguments of an aggregate
/// are not searched (nested aggregates are the planner's error to report).
std::vector<AggregateCall> collectAggregates(const SelectStatement& select);

/// How many of collectAggregates' calls are of `function` (case-insensitive): with "sum",
/// how many sums the query computes.
size_t countDistinctAggregates(const SelectStatement& select, std::string_view function);

}  // namespace granary::sql
