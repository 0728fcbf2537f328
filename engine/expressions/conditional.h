#pragma once

#include <string>
#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// CASE WHEN conditions[0] THEN results[0] ... ELSE otherwise END (and if(c, a, b)): each row
/// takes the result of the first non-zero condition, else `otherwise`. Results are converted to
/// `type` (commonType of their types); all branches are evaluated over the whole range.
NodePtr makeCase(const std::vector<NodePtr>& conditions, const std::vector<NodePtr>& results,
                 NodePtr otherwise, TypeId type);

/// makeCase over branches of any types: the results meet in their commonType (kTypeMismatch
/// "The branches of `quoted` have no common type: ... `position`" when there is none); without
/// `otherwise` (no ELSE), rows no condition takes get the type's default.
NodePtr makeCaseOfBranches(const std::vector<NodePtr>& conditions,
                           const std::vector<NodePtr>& results, NodePtr otherwise,
                           const std::string& quoted, const std::string& position);

}  // namespace granary
