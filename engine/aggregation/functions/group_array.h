#pragma once

#include <vector>

#include "engine/aggregation/aggregate_function_factory.h"

namespace granary
{

/// Registers groupArray([N])(x), each group's values as an Array (the first N), and
/// groupUniqArray([N])(x), its distinct values (the first N). Element order is the order the
/// rows and partial states were met in, which the thread count changes, as in ClickHouse.
void addGroupArrayFunctions(std::vector<AggregateFunctionEntry>& entries);

}  // namespace granary
