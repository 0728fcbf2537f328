#include "engine/expressions/compiled_expression.h"

namespace granary
{

CompiledExpression::CompiledExpression(NodePtr root) : root_(std::move(root)) {}

ColumnView CompiledExpression::evaluate(const BlockView& input, size_t begin, size_t count,
                                        Column& holder) const
{
    const ColumnView values = root_->evaluate(input, begin, count, holder);
    if (!root_->dataType().nullable || root_->columnName())  // a column carries its own NULLs
    {
        return values;
    }
    std::vector<uint8_t> valid;
    validityBytes(*root_, input, begin, count, valid);
    return withValidityBytes(values, valid, holder);
}

}  // namespace granary
