#include "engine/common/var_uint.h"
#include "engine/formats/format_writers.h"

namespace granary::format_writers
{

void appendRowBinaryValue(const ColumnView& column, size_t row, std::string& buffer)
{
    if (isString(column.type))
    {
        const std::string_view value = column.stringAt(row);
        appendVarUInt(value.size(), buffer);
        buffer += value;
    }
    else if (isNested(column.type))
    {
        const uint64_t first = column.offsets[row];
        const uint64_t last = column.offsets[row + 1];
        appendVarUInt(last - first, buffer);
        for (uint64_t element = first; element < last; ++element)
        {
            appendRowBinaryValue(column.children[0], element, buffer);
            if (column.type == TypeId::Map)
            {
                appendRowBinaryValue(column.children[1], element, buffer);
            }
            else if (column.type == TypeId::Json)
            {
                buffer += column.children[1].stringAt(element);  // Tagged already: Dynamic.
            }
        }
    }
    else
    {
        const size_t width = fixedWidth(column.type);
        buffer.append(static_cast<const char*>(column.data) + row * width, width);
    }
}

void writeRowBinaryHeader(const Block& block, std::ostream& out)
{
    std::string header;
    appendVarUInt(block.columns.size(), header);
    for (const Block::Entry& entry : block.columns)
    {
        appendVarUInt(entry.name.size(), header);
        header += entry.name;
    }
    for (const Block::Entry& entry : block.columns)
    {
        const std::string type = dataTypeName(binaryFormatType(entry.column.dataType()));
        appendVarUInt(type.size(), header);
        header += type;
    }
    out << header;
}

void writeRowBinaryRows(const Block& block, std::ostream& out)
{
    std::vector<ColumnView> views;
    std::vector<bool> nullable;
    for (const Block::Entry& entry : block.columns)
    {
        views.push_back(entry.column.view());
        nullable.push_back(entry.column.dataType().nullable);
    }
    std::string buffer;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        for (size_t c = 0; c < views.size(); ++c)
        {
            // Nullable(T): a byte, 1 for NULL (nothing follows) or 0 before T's value.
            if (nullable[c])
            {
                buffer += views[c].isValid(row) ? '\0' : '\1';
                if (!views[c].isValid(row))
                {
                    continue;
                }
            }
            appendRowBinaryValue(views[c], row, buffer);
        }
        if (buffer.size() >= kFlushBytes)
        {
            out << buffer;
            buffer.clear();
        }
    }
    out << buffer;
}

}  // namespace granary::format_writers
