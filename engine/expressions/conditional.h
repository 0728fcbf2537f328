#pragma once

#include <string>
#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// CASE WHEN conditions[0] THEN results[0] ... ELSE otherwise END (and if(c, a, b)): each row
/// takes the result of the first non-zero condition, else `otherwise`. Results are converted to
/// `type` (commonType of their types); all branches are evaluated over the whole range. A
/// NULL condition is not true; a row is NULL where its branch is (`type` must be Nullable
/// where a branch may be NULL).
NodePtr makeCase(const std::vector<NodePtr>& conditions, const std::vector<NodePtr>& results,
                 NodePtr otherwise, DataType type);

/// makeCase over branches of any types: the results meet in their commonType (kTypeMismatch
/// "The branches of `quoted` have no common type: ... `position`" when there is none); without
/// `otherwise` (no ELSE), rows no condition takes are NULL. A bare NULL result
/// takes the others' type, and the result is Nullable where a branch is.
/// kFromOtherwise: the results are taken only where they are not NULL (coalesce), so the
/// result is Nullable only where `otherwise` is.
enum class CaseNulls
{
    kAnyBranch,
    kFromOtherwise,
};
NodePtr makeCaseOfBranches(const std::vector<NodePtr>& conditions, std::vector<NodePtr> results,
                           NodePtr otherwise, const std::string& quoted,
                           const std::string& position, CaseNulls nulls = CaseNulls::kAnyBranch);

}  // namespace granary
