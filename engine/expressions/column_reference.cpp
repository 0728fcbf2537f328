#include "engine/expressions/column_reference.h"

#include "engine/common/exception.h"

namespace granary
{

ColumnView findColumn(const BlockView& input, const std::string& name)
{
    const std::optional<ColumnView> column = input.find(name);
    if (!column)
    {
        throw Exception(ErrorCode::kUnknownColumn,
                        "Unknown column '" + name + "': the input block does not have it");
    }
    return *column;
}

ColumnReferenceNode::ColumnReferenceNode(std::string name, DataType type)
    : ExpressionNode(std::move(type), {}), name_(std::move(name))
{
    addColumn(name_);
}

ColumnView ColumnReferenceNode::evaluate(const BlockView& input, size_t begin, size_t count,
                                         Column& holder) const
{
    const ColumnView column = findColumn(input, name_);
    if (column.type != type())
    {
        throw Exception(ErrorCode::kTypeMismatch,
                        "Column '" + name_ + "' was compiled as " + std::string(typeName(type())) +
                            " but the input block holds " + std::string(typeName(column.type)));
    }
    if (begin + count > column.rows)
    {
        throw Exception(ErrorCode::kBadArguments, "Rows [" + std::to_string(begin) + ", " +
                                                      std::to_string(begin + count) +
                                                      ") are outside column '" + name_ + "' of " +
                                                      std::to_string(column.rows) + " rows");
    }
    return column.slice(begin, count);
}

void ColumnReferenceNode::andValidity(const BlockView& input, size_t begin, size_t count,
                                      uint8_t* valid) const
{
    const ColumnView column = findColumn(input, name_);
    if (!column.hasValidity())
    {
        return;
    }
    for (size_t row = 0; row < count; ++row)
    {
        valid[row] &= column.isValid(begin + row) ? 1 : 0;
    }
}

bool ColumnReferenceNode::mayHoldNulls(const BlockView& input) const
{
    return dataType().nullable && findColumn(input, name_).hasValidity();
}

ConstantNode::ConstantNode(Column value)
    : ExpressionNode(value.dataType(), {}), value_(std::move(value))
{
}

void ConstantNode::andValidity(const BlockView&, size_t, size_t count, uint8_t* valid) const
{
    if (isNull())
    {
        std::memset(valid, 0, count);
    }
}

ColumnView ConstantNode::evaluate(const BlockView&, size_t, size_t count, Column& holder) const
{
    holder = Column(dataType().withoutNullable());  // NULLs are andValidity's
    if (isNested(type()))
    {
        for (size_t row = 0; row < count; ++row)
        {
            holder.appendRange(value_.view(), 0, 1);
        }
        return holder.view();
    }
    if (isString(type()))
    {
        const std::string_view value = value_.stringAt(0);
        holder.reserve(count, value.size() * count);
        for (size_t row = 0; row < count; ++row)
        {
            holder.appendString(value);
        }
        return holder.view();
    }
    const size_t width = fixedWidth(type());
    holder.resizeFixed(count);
    char* out = holder.mutableData<char>();
    const char* value = static_cast<const char*>(value_.view().data);
    for (size_t row = 0; row < count; ++row)
    {
        std::memcpy(out + row * width, value, width);
    }
    return holder.view();
}

}  // namespace granary
