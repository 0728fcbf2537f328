#pragma once

#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"

namespace granary
{

/// Registers topK(N)(x) and topK(N, load_factor)(x): the N most frequent values of x, most
/// frequent first, as an Array of x's type (a Space-Saving summary of N * load_factor
/// counters).
void addTopKFunctions(std::vector<AggregateFunctionEntry>& entries);

}  // namespace granary
