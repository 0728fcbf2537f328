#pragma once

#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"

namespace granary
{

/// quantileExact, quantile and quantileTDigest (parametric: f(level)(x), level in [0, 1],
/// 0.5 when omitted), their medians medianExact, median and medianTDigest (f(x)), and their
/// several-level forms quantilesExact, quantiles and quantilesTDigest (f(l1, l2, ...)(x): an
/// Array of the quantiles, in the levels' order).
void addQuantileFunctions(std::vector<AggregateFunctionEntry>& entries);

}  // namespace granary
