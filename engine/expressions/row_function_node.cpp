#include "engine/expressions/row_function_node.h"

namespace granary
{
namespace
{

class RowFunctionNode final : public ExpressionNode
{
public:
    RowFunctionNode(DataType type, std::vector<NodePtr> operands, RowKernel kernel)
        : ExpressionNode(std::move(type), std::move(operands)), kernel_(std::move(kernel))
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        std::vector<Operand> operands(children().size());
        for (size_t i = 0; i < operands.size(); ++i)
        {
            evaluateOperand(*children()[i], input, begin, count, operands[i]);
        }
        holder = Column(dataType());
        for (size_t row = 0; row < count; ++row)
        {
            kernel_(operands, row, holder);
        }
        return holder.view();
    }

private:
    RowKernel kernel_;
};

}  // namespace

NodePtr makeRowFunction(DataType type, std::vector<NodePtr> operands, RowKernel kernel)
{
    return std::make_shared<RowFunctionNode>(std::move(type), std::move(operands),
                                             std::move(kernel));
}

NodePtr makeJoinedText(std::vector<NodePtr> operands, AppendRowText append)
{
    return makeRowFunction(TypeId::String, std::move(operands),
                           [append](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               std::string text;
                               for (const Operand& value : values)
                               {
                                   append(value.view, value.scalar ? 0 : row, text);
                               }
                               out.appendString(text);
                           });
}

std::string_view textAt(const Operand& operand, size_t row)
{
    return operand.view.stringAt(operand.scalar ? 0 : row);
}

int64_t integerAt(const Operand& operand, size_t row)
{
    return dispatchFixedType(
        operand.view.type, [&]<typename T>(TypeTag<T>)
        { return static_cast<int64_t>(operand.view.valueAt<T>(operand.scalar ? 0 : row)); });
}

double doubleAt(const Operand& operand, size_t row)
{
    return dispatchFixedType(
        operand.view.type, [&]<typename T>(TypeTag<T>)
        { return static_cast<double>(operand.view.valueAt<T>(operand.scalar ? 0 : row)); });
}

}  // namespace granary
