#pragma once

#include <optional>

#include "engine/expressions/expression_node.h"

namespace granary
{

enum class ComparisonOperator
{
    Equals,
    NotEquals,
    Less,
    LessOrEquals,
    Greater,
    GreaterOrEquals,
};

/// The operator that gives the same answer with the operands swapped (< becomes >).
ComparisonOperator mirrored(ComparisonOperator op);

/// `left op right` as UInt8 (0 or 1). Both operands are String, or both numeric (integers,
/// floats, Date, DateTime: the caller converts date literals and mixes of Date with DateTime
/// first). Numbers compare by value: signed with unsigned exactly, integers with floats through
/// Float64, except against a constant, which is compared exactly (`x < 2.5` is `x <= 2`, a
/// constant outside the column type's range decides every row at once).
NodePtr makeComparison(ComparisonOperator op, NodePtr left, NodePtr right);

/// How `x op constant` reduces for values of type T: a fixed answer, or the same comparison
/// (possibly with another operator) against a constant of T's own domain (double for floats).
template <typename T>
struct ReducedComparison
{
    using Value = std::conditional_t<std::is_floating_point_v<T>, double, T>;
    std::optional<bool> always;
    ComparisonOperator op = ComparisonOperator::Equals;
    Value value{};
};

/// Reduces `x op constant` for x of `type` (numeric) and the value in row `row` of the numeric
/// column `constant`.
template <typename T>
ReducedComparison<T> reduceComparison(ComparisonOperator op, const Column& constant,
                                      size_t row = 0);

}  // namespace granary
