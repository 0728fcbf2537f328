#include "engine/expressions/predicate.h"

#include "engine/expressions/column_reference.h"

namespace granary
{

PredicateNode::PredicateNode(NodePtr operand) : ExpressionNode(TypeId::UInt8, {std::move(operand)})
{
}

ColumnView PredicateNode::evaluate(const BlockView& input, size_t begin, size_t count,
                                   Column& holder) const
{
    Column operand_holder;
    const ColumnView values = children()[0]->evaluate(input, begin, count, operand_holder);
    holder = Column(TypeId::UInt8);
    holder.resizeFixed(count);
    writeMask(values, holder.mutableData<uint8_t>());
    return holder.view();
}

void PredicateNode::refineSelection(const BlockView& input, size_t begin, size_t count,
                                    std::vector<uint32_t>& rows) const
{
    if (rows.empty())
    {
        return;
    }
    const ExpressionNode& operand = *children()[0];
    if (!operand.columnName())
    {
        ExpressionNode::refineSelection(input, begin, count, rows);
        return;
    }
    Column unused;
    const ColumnView values = operand.evaluate(input, begin, count, unused);
    if (rows.size() * wholeRangeRowsPerSurvivor() >= count)
    {
        uint8_t* mask = scratchMask(count);
        writeMask(values, mask);
        keepMaskedRows(mask, count, rows);
        return;
    }
    keepPassingRows(values, rows);
}

}  // namespace granary
