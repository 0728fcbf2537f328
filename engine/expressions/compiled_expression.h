#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/columns/types.h"
#include "engine/expressions/expression_node.h"
#include "engine/sql/expression.h"

namespace granary
{

/// The type of each column an expression may read, by name; nullopt for unknown names.
using ColumnTypeLookup = std::function<std::optional<DataType>(std::string_view name)>;

/// A scalar expression compiled against a schema: typed, constant-folded, ready to evaluate
/// over ranges of rows by any number of threads at once.
class CompiledExpression
{
public:
    explicit CompiledExpression(NodePtr root);

    TypeId type() const { return root_->type(); }
    const DataType& dataType() const { return root_->dataType(); }
    /// True when the expression reads no column (it was folded into one value).
    bool isConstant() const { return root_->columns().empty(); }
    /// Names of the columns it reads, each once.
    const std::vector<std::string>& columns() const { return root_->columns(); }

    /// Evaluates over rows [begin, begin + count) of `input` (columns found by name). Returns a
    /// view of `count` rows: into `input` itself for a bare column (no copy), else into
    /// `holder`, with a validity bitmap where rows are NULL. Throws Exception kUnknownColumn
    /// when `input` lacks a column it reads.
    ColumnView evaluate(const BlockView& input, size_t begin, size_t count, Column& holder) const;

    const ExpressionNode& root() const { return *root_; }

private:
    NodePtr root_;
};

/// Compiles `expression`, typing its columns through `lookup`. Throws Exception:
/// kUnknownColumn / kUnknownFunction naming the name and its line:column, kTypeMismatch naming
/// the operand or function and the types, kBadArguments for wrong argument counts, non-constant
/// patterns, invalid regular expressions and a constant division by zero. Aggregate calls
/// (count, sum...) must have been replaced by column references: compiling one is
/// kUnknownFunction ("aggregate function ... is not allowed here").
CompiledExpression compileExpression(const sql::ExpressionPtr& expression,
                                     const ColumnTypeLookup& lookup);

}  // namespace granary
