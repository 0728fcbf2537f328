#include "engine/common/var_uint.h"
#include "engine/formats/format_writers.h"

namespace granary::format_writers
{

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
        const std::string_view type = typeName(entry.column.type());
        appendVarUInt(type.size(), header);
        header += type;
    }
    out << header;
}

void writeRowBinaryRows(const Block& block, std::ostream& out)
{
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        views.push_back(entry.column.view());
    }
    std::string buffer;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        for (const ColumnView& column : views)
        {
            if (isString(column.type))
            {
                const std::string_view value = column.stringAt(row);
                appendVarUInt(value.size(), buffer);
                buffer += value;
            }
            else
            {
                const size_t width = fixedWidth(column.type);
                buffer.append(static_cast<const char*>(column.data) + row * width, width);
            }
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
