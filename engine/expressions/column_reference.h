#pragma once

#include <string>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// The input column `name` (looked up by name in each block). Throws Exception kUnknownColumn
/// when the block lacks it.
ColumnView findColumn(const BlockView& input, const std::string& name);

/// A bare column: evaluating it views the input, copying nothing.
class ColumnReferenceNode final : public ExpressionNode
{
public:
    ColumnReferenceNode(std::string name, DataType type);

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override;
    void andValidity(const BlockView& input, size_t begin, size_t count,
                     uint8_t* valid) const override;
    bool mayHoldNulls(const BlockView& input) const override;
    const std::string* columnName() const override { return &name_; }

private:
    std::string name_;
};

/// A value that reads no column: literals and folded subexpressions. Consumers take its one
/// row as a scalar through constantValue(); evaluate() broadcasts it (a constant select item).
class ConstantNode final : public ExpressionNode
{
public:
    /// `value` holds exactly one row.
    explicit ConstantNode(Column value);

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override;
    void andValidity(const BlockView& input, size_t begin, size_t count,
                     uint8_t* valid) const override;
    bool mayHoldNulls(const BlockView&) const override { return isNull(); }
    const Column* constantValue() const override { return &value_; }
    /// Whether the value is NULL.
    bool isNull() const { return value_.isNull(0); }

private:
    Column value_;
};

}  // namespace granary
