#pragma once

#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"

namespace granary
{

/// Registers the statistics family: the moments (varPop, varSamp, stddevPop, stddevSamp,
/// covarPop, covarSamp, corr), anyLast, argMin, argMax, anyHeavy, the groupBit functions and
/// sumWithOverflow.
void addStatisticsFunctions(std::vector<AggregateFunctionEntry>& entries);

/// Creates sum(x), which needs the argument's name for its overflow error.
AggregateFunctionPtr createSum(const AggregateCall& call);

}  // namespace granary
