#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// Appends the value of one row to `out` (a column of the node's type), reading the operands'
/// values of that row (a constant operand has one value for every row).
using RowKernel =
    std::function<void(const std::vector<Operand>& operands, size_t row, Column& out)>;

/// A function computed one row at a time: the operands are evaluated over the range once, then
/// `kernel` runs per row. For functions whose per-row work (searching, copying bytes, parsing)
/// outweighs the call: string functions, conversions, rounding.
NodePtr makeRowFunction(DataType type, std::vector<NodePtr> operands, RowKernel kernel);

/// Appends the text of row `row` of a column to `out` (value_text.h's appendValue,
/// row_key.h's appendRowKey).
using AppendRowText = void (*)(const ColumnView& column, size_t row, std::string& out);

/// A String per row: `append` of each operand's value, one after another (concat, toString,
/// _rowKey).
NodePtr makeJoinedText(std::vector<NodePtr> operands, AppendRowText append);

/// The value of `operand` at `row`: a String's bytes, or a fixed-width number as T.
std::string_view textAt(const Operand& operand, size_t row);
int64_t integerAt(const Operand& operand, size_t row);
double doubleAt(const Operand& operand, size_t row);

}  // namespace granary
