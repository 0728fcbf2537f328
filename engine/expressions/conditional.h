#pragma once

#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// CASE WHEN conditions[0] THEN results[0] ... ELSE otherwise END (and if(c, a, b)): each row
/// takes the result of the first non-zero condition, else `otherwise`. Results are converted to
/// `type` (commonType of their types); all branches are evaluated over the whole range.
NodePtr makeCase(const std::vector<NodePtr>& conditions, const std::vector<NodePtr>& results,
                 NodePtr otherwise, TypeId type);

}  // namespace granary
