#pragma once

#include "engine/expressions/expression_node.h"

namespace granary
{

/// A constant NULL of `type` (made Nullable). The NULL literal is nullConstant(UInt8): ClickHouse
/// types it Nullable(Nothing), which takes the type of whatever it meets (a CASE branch, a
/// comparison's other side).
NodePtr nullConstant(DataType type);
/// Whether `node` is a constant NULL (the literal, or what folded into one).
bool isNullConstant(const ExpressionNode& node);
/// An operator of two operands where either is a constant NULL: NULL (typed as the NULL
/// literal); else null, and the operator is compiled as usual.
NodePtr nullOperatorResult(const ExpressionNode& left, const ExpressionNode& right);

/// isNull(x) / isNotNull(x) (`x IS [NOT] NULL`): UInt8, never NULL.
NodePtr makeIsNull(NodePtr value, bool negated);

}  // namespace granary
