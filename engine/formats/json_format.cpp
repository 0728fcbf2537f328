#include <fmt/format.h>

#include "engine/formats/format_writers.h"
#include "engine/formats/text_escaping.h"

namespace granary::format_writers
{
namespace
{

void appendMeta(const Block& block, std::string& out)
{
    out += "\t\"meta\":\n\t[";
    for (size_t i = 0; i < block.columns.size(); ++i)
    {
        out += i == 0 ? "\n\t\t{\n\t\t\t\"name\": " : ",\n\t\t{\n\t\t\t\"name\": ";
        appendJsonString(block.columns[i].name, out);
        out += ",\n\t\t\t\"type\": ";
        appendJsonString(dataTypeName(block.columns[i].column.dataType()), out);
        out += "\n\t\t}";
    }
    out += "\n\t],\n\n";
}

}  // namespace

void writeJson(const Block& block, const OutputStatistics& statistics, std::ostream& out)
{
    std::string buffer = "{\n";
    appendMeta(block, buffer);
    std::vector<std::string> keys;
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        std::string key = "\t\t\t";
        appendJsonString(entry.name, key);
        keys.push_back(key + ": ");
        views.push_back(entry.column.view());
    }
    buffer += "\t\"data\":\n\t[";
    std::string scratch;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        buffer += row == 0 ? "\n\t\t{" : ",\n\t\t{";
        for (size_t i = 0; i < views.size(); ++i)
        {
            buffer += i == 0 ? "\n" : ",\n";
            buffer += keys[i];
            appendJsonValue(views[i], row, scratch, buffer);
        }
        buffer += "\n\t\t}";
        if (buffer.size() >= kFlushBytes)
        {
            out << buffer;
            buffer.clear();
        }
    }
    buffer += fmt::format(
        "\n\t],\n\n\t\"rows\": {},\n\n\t\"statistics\":\n\t{{\n\t\t\"elapsed\": {:.6f},\n"
        "\t\t\"rows_read\": {},\n\t\t\"bytes_read\": {}\n\t}}\n}}\n",
        block.rows(), statistics.elapsed_seconds, statistics.rows_read, statistics.bytes_read);
    out << buffer;
}

}  // namespace granary::format_writers
