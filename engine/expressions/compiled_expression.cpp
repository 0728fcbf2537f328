#include "engine/expressions/compiled_expression.h"

namespace granary
{

CompiledExpression::CompiledExpression(NodePtr root) : root_(std::move(root)) {}

ColumnView CompiledExpression::evaluate(const BlockView& input, size_t begin, size_t count,
                                        Column& holder) const
{
    return root_->evaluate(input, begin, count, holder);
}

}  // namespace granary
