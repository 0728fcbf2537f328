#include "engine/expressions/string_functions.h"

namespace granary
{
namespace
{

class LengthNode final : public ExpressionNode
{
public:
    explicit LengthNode(NodePtr value) : ExpressionNode(TypeId::UInt64, {std::move(value)}) {}

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column value_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, value_holder);
        holder = Column(TypeId::UInt64);
        holder.resizeFixed(count);
        uint64_t* out = holder.mutableData<uint64_t>();
        for (size_t row = 0; row < count; ++row)
        {
            out[row] = values.offsets[row + 1] - values.offsets[row];
        }
        return holder.view();
    }
};

class CaseConversionNode final : public ExpressionNode
{
public:
    CaseConversionNode(NodePtr value, bool to_upper)
        : ExpressionNode(TypeId::String, {std::move(value)}), to_upper_(to_upper)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column value_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, value_holder);
        const uint64_t first = values.offsets[0];
        const uint64_t bytes = values.offsets[count] - first;
        holder = Column(TypeId::String);
        holder.resizeStrings(count, bytes);
        uint64_t* offsets = holder.mutableOffsets();
        for (size_t row = 0; row <= count; ++row)
        {
            offsets[row] = values.offsets[row] - first;
        }
        const char from = to_upper_ ? 'a' : 'A';
        const char to = to_upper_ ? 'A' : 'a';
        char* out = holder.mutableChars();
        for (uint64_t i = 0; i < bytes; ++i)
        {
            const char c = values.chars[first + i];
            out[i] =
                static_cast<unsigned char>(c - from) < 26 ? static_cast<char>(c - from + to) : c;
        }
        return holder.view();
    }

private:
    bool to_upper_;
};

}  // namespace

NodePtr makeLength(NodePtr value)
{
    return std::make_shared<LengthNode>(std::move(value));
}

NodePtr makeCaseConversion(NodePtr value, bool to_upper)
{
    return std::make_shared<CaseConversionNode>(std::move(value), to_upper);
}

}  // namespace granary
