#pragma once

#include <string>

#include "engine/expressions/expression_node.h"
#include "engine/expressions/type_rules.h"

namespace granary
{

/// `left op right` with `result` = arithmeticResultType(op, left, right). Integer + - * are
/// computed in 64-bit unsigned arithmetic, so they wrap around without undefined behaviour and
/// give the same bits whether the result is Int64 or UInt64; Date and DateTime results keep the
/// low 16 or 32 bits. `description` (the expression's text) names it in errors: an integer %
/// with a zero divisor throws Exception kBadArguments.
NodePtr makeArithmetic(ArithmeticOperator op, NodePtr left, NodePtr right, TypeId result,
                       std::string description);

/// Unary minus with `result` = negateResultType(operand type); integers wrap (-INT64_MIN is
/// INT64_MIN).
NodePtr makeNegate(NodePtr operand, TypeId result);

}  // namespace granary
