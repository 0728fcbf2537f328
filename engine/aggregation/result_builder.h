#pragma once

#include <vector>

#include "engine/aggregation/group_by_plan.h"
#include "engine/columns/block.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// Concatenates blocks of equal schema (one fragment per finalized bucket) into one, copying
/// each fragment's slice of every column as a task of `recorder`'s phase, in parallel.
Block concatenateFragments(std::vector<Block>& fragments, QueryContext& context,
                           PhaseRecorder& recorder);

/// `plan`'s result from the fragments its finish gave (in order): an empty result of its
/// schema when there are none, the only one as it is, or their concatenation, timed as
/// finalize work.
Block concatenateResult(std::vector<Block> fragments, const GroupByPlan& plan,
                        QueryContext& context);

}  // namespace granary
