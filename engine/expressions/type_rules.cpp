#include "engine/expressions/type_rules.h"

#include <algorithm>

namespace granary
{
namespace
{

bool isPlainInteger(TypeId type)
{
    return isInteger(type) && !isDateOrTime(type);
}

TypeId numericResultType(TypeId left, TypeId right)
{
    if (isFloat(left) || isFloat(right))
    {
        return TypeId::Float64;
    }
    return isSignedInteger(left) || isSignedInteger(right) ? TypeId::Int64 : TypeId::UInt64;
}

}  // namespace

bool isNumeric(TypeId type)
{
    return !isString(type);
}

bool isDateOrTime(TypeId type)
{
    return type == TypeId::Date || type == TypeId::DateTime || type == TypeId::DateTime64;
}

std::optional<TypeId> arithmeticResultType(ArithmeticOperator op, TypeId left, TypeId right)
{
    // A DateTime64 result would need its precision, which a TypeId does not carry: its
    // arithmetic is refused rather than guessed.
    if (isString(left) || isString(right) || left == TypeId::DateTime64 ||
        right == TypeId::DateTime64)
    {
        return std::nullopt;
    }
    if (isDateOrTime(left) || isDateOrTime(right))
    {
        const bool shifts_left = isDateOrTime(left) && isPlainInteger(right);
        if (op == ArithmeticOperator::Plus &&
            (shifts_left || (isPlainInteger(left) && isDateOrTime(right))))
        {
            return shifts_left ? left : right;
        }
        if (op == ArithmeticOperator::Minus && shifts_left)
        {
            return left;
        }
        if (op == ArithmeticOperator::Minus && left == right)
        {
            return TypeId::Int64;
        }
        return std::nullopt;
    }
    if (op == ArithmeticOperator::Divide)
    {
        return TypeId::Float64;
    }
    return numericResultType(left, right);
}

std::optional<TypeId> negateResultType(TypeId operand)
{
    if (isString(operand) || isDateOrTime(operand))
    {
        return std::nullopt;
    }
    return isFloat(operand) ? TypeId::Float64 : TypeId::Int64;
}

std::optional<TypeId> commonType(std::span<const TypeId> types)
{
    if (types.empty())
    {
        return std::nullopt;
    }
    const TypeId first = types.front();
    if (first == TypeId::DateTime64)
    {
        return std::nullopt;  // The precision of the result is not known here.
    }
    if (std::all_of(types.begin(), types.end(), [&](TypeId type) { return type == first; }))
    {
        return first;
    }
    if (std::any_of(types.begin(), types.end(), isString) ||
        std::any_of(types.begin(), types.end(), isDateOrTime))
    {
        return std::nullopt;
    }
    TypeId result = TypeId::UInt64;
    for (const TypeId type : types)
    {
        result = numericResultType(result, type);
    }
    return result;
}

}  // namespace granary
