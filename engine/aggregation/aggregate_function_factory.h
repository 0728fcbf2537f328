#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/aggregation/aggregate_function.h"
#include "engine/aggregation/functions/uniq_exact.h"
#include "engine/columns/types.h"

namespace granary
{

/// One argument of an aggregate: the column's name (for error messages) and type.
struct AggregateArgument
{
    std::string name;
    TypeId type;
};

/// Creates `function` (count, sum, avg, min, max, any, uniqExact / uniq / count_distinct)
/// for the given arguments. Unknown functions throw kUnknownFunction; an argument of a type
/// the function does not take throws kTypeMismatch naming the column.
AggregateFunctionPtr createAggregateFunction(std::string_view function,
                                             const std::vector<AggregateArgument>& arguments,
                                             const DistinctSettings& distinct_settings = {});

/// True for names createAggregateFunction knows (case-insensitive).
bool isAggregateFunctionName(std::string_view function);
/// True for the names of count(DISTINCT x) (uniqExact, uniq, count_distinct; any case).
bool isDistinctCountName(std::string_view function);

}  // namespace granary
