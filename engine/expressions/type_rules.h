#pragma once

#include <optional>
#include <span>

#include "engine/columns/types.h"

namespace granary
{

enum class ArithmeticOperator
{
    Plus,
    Minus,
    Multiply,
    Divide,
    Modulo,
};

/// True for every type but String (integers, floats, Date, DateTime).
bool isNumeric(TypeId type);
/// Date or DateTime.
bool isDateOrTime(TypeId type);  ///< Date, DateTime and DateTime64.

/// The result type of `left op right` (docs/expressions.md has the table), nullopt where the
/// operator does not take these types:
///   + - * %: Float64 if either side is a float, else Int64 if either is signed, else UInt64;
///   /: Float64;  Date ± integer → Date, DateTime ± integer → DateTime (integer + Date too),
///   Date - Date and DateTime - DateTime → Int64; String never.
std::optional<TypeId> arithmeticResultType(ArithmeticOperator op, TypeId left, TypeId right);

/// Unary minus: Int64 for integers (Date and DateTime excluded), Float64 for floats.
std::optional<TypeId> negateResultType(TypeId operand);

/// The type CASE / if branches unify to: the type itself when all agree; String, Date and
/// DateTime only with themselves; otherwise Float64 if any is a float, Int64 if any is signed,
/// else UInt64.
std::optional<TypeId> commonType(std::span<const TypeId> types);

}  // namespace granary
