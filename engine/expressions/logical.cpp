#include "engine/expressions/logical.h"

namespace granary
{
namespace
{

class ConnectiveNode final : public ExpressionNode
{
public:
    ConnectiveNode(bool is_and, std::vector<NodePtr> operands)
        : ExpressionNode(TypeId::UInt8, std::move(operands)), is_and_(is_and)
    {
    }

    /// Three-valued logic: NULL unless every operand is known or one decides alone (a known
    /// false for AND, a known true for OR). Where the result is known, evaluate()'s value is
    /// right whatever NULL operands hold.
    void andValidity(const BlockView& input, size_t begin, size_t count,
                     uint8_t* valid) const override
    {
        if (!dataType().nullable)
        {
            return;
        }
        std::vector<uint8_t> all_known(count, 1);
        std::vector<uint8_t> decided(count, 0);
        std::vector<uint8_t> known;
        std::vector<uint8_t> value(count);
        for (const NodePtr& operand : children())
        {
            Column holder;
            nonZeroMask(operand->evaluate(input, begin, count, holder), value.data());
            validityBytes(*operand, input, begin, count, known);
            for (size_t row = 0; row < count; ++row)
            {
                const uint8_t operand_known = known.empty() ? 1 : known[row];
                all_known[row] &= operand_known;
                decided[row] |= operand_known & (is_and_ ? value[row] ^ 1 : value[row]);
            }
        }
        for (size_t row = 0; row < count; ++row)
        {
            valid[row] &= all_known[row] | decided[row];
        }
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        holder = Column(TypeId::UInt8);
        holder.resizeFixed(count);
        uint8_t* out = holder.mutableData<uint8_t>();
        std::fill_n(out, count, is_and_ ? 1 : 0);
        std::vector<uint8_t> mask(count);
        for (const NodePtr& operand : children())
        {
            Column operand_holder;
            const ColumnView values = operand->evaluate(input, begin, count, operand_holder);
            nonZeroMask(values, mask.data());
            for (size_t row = 0; row < count; ++row)
            {
                out[row] = is_and_ ? (out[row] & mask[row]) : (out[row] | mask[row]);
            }
        }
        return holder.view();
    }

    void refineSelection(const BlockView& input, size_t begin, size_t count,
                         std::vector<uint32_t>& rows) const override
    {
        if (!is_and_)
        {
            ExpressionNode::refineSelection(input, begin, count, rows);
            return;
        }
        for (const NodePtr& operand : children())
        {
            operand->refineSelection(input, begin, count, rows);
        }
    }

private:
    bool is_and_;
};

class NotNode final : public ExpressionNode
{
public:
    explicit NotNode(NodePtr operand) : ExpressionNode(TypeId::UInt8, {std::move(operand)}) {}

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column operand_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, operand_holder);
        holder = Column(TypeId::UInt8);
        holder.resizeFixed(count);
        uint8_t* out = holder.mutableData<uint8_t>();
        nonZeroMask(values, out);
        for (size_t row = 0; row < count; ++row)
        {
            out[row] ^= 1;
        }
        return holder.view();
    }
};

}  // namespace

NodePtr makeAnd(std::vector<NodePtr> operands)
{
    return std::make_shared<ConnectiveNode>(true, std::move(operands));
}

NodePtr makeOr(std::vector<NodePtr> operands)
{
    return std::make_shared<ConnectiveNode>(false, std::move(operands));
}

NodePtr makeNot(NodePtr operand)
{
    return std::make_shared<NotNode>(std::move(operand));
}

}  // namespace granary
