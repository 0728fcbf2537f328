#pragma once

#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// `a AND b AND ...` (all non-zero) or `a OR b OR ...` (any non-zero) over numeric operands,
/// as UInt8. In a filter, AND refines the selection operand by operand, so each one after the
/// first only looks at the rows the earlier ones kept.
NodePtr makeAnd(std::vector<NodePtr> operands);
NodePtr makeOr(std::vector<NodePtr> operands);

/// `NOT a`: 1 where a is zero, as UInt8.
NodePtr makeNot(NodePtr operand);

}  // namespace granary
