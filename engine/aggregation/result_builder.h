#pragma once

#include <vector>

#include "engine/columns/block.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// Concatenates blocks of equal schema (one fragment per finalized bucket) into one, copying
/// each fragment's slice of every column as a task of `recorder`'s phase, in parallel.
Block concatenateFragments(std::vector<Block>& fragments, QueryContext& context,
                           PhaseRecorder& recorder);

}  // namespace granary
