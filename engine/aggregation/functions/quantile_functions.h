#pragma once

#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"

namespace granary
{

/// quantileExact, quantile and quantileTDigest (parametric: f(level)(x), level in [0, 1],
/// 0.5 when omitted) and their medians medianExact, median and medianTDigest (f(x)).
void addQuantileFunctions(std::vector<AggregateFunctionEntry>& entries);

}  // namespace granary
