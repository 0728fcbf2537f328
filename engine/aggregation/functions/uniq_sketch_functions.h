#pragma once

#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"

namespace granary
{

/// uniq and uniqCombined: approximate, mergeable distinct counts (uniq_sketch.h).
void addUniqSketchFunctions(std::vector<AggregateFunctionEntry>& entries);

}  // namespace granary
