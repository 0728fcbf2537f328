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

std::vector<ColumnView> viewsOf(const Block& block)
{
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        views.push_back(entry.column.view());
    }
    return views;
}

/// The members of one row, a line each: `keys[i]` (indented, quoted, with its colon), then
/// the value.
void appendMembers(const std::vector<ColumnView>& views, size_t row,
                   const std::vector<std::string>& keys, std::string& scratch, std::string& out)
{
    for (size_t i = 0; i < views.size(); ++i)
    {
        out += i == 0 ? "\n" : ",\n";
        out += keys[i];
        appendJsonValue(views[i], row, scratch, out);
    }
}

}  // namespace

void writeJson(const Block& block, const Block* totals, const OutputStatistics& statistics,
               std::ostream& out)
{
    std::string buffer = "{\n";
    appendMeta(block, buffer);
    std::vector<std::string> keys;
    for (const Block::Entry& entry : block.columns)
    {
        std::string key = "\t\t\t";
        appendJsonString(entry.name, key);
        keys.push_back(key + ": ");
    }
    const std::vector<ColumnView> views = viewsOf(block);
    buffer += "\t\"data\":\n\t[";
    std::string scratch;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        buffer += row == 0 ? "\n\t\t{" : ",\n\t\t{";
        appendMembers(views, row, keys, scratch, buffer);
        buffer += "\n\t\t}";
        if (buffer.size() >= kFlushBytes)
        {
            out << buffer;
            buffer.clear();
        }
    }
    buffer += "\n\t],\n\n";
    if (totals != nullptr)
    {
        // One level less indented than a row of data, as ClickHouse writes it.
        for (std::string& key : keys)
        {
            key.erase(0, 1);
        }
        buffer += "\t\"totals\":\n\t{";
        appendMembers(viewsOf(*totals), 0, keys, scratch, buffer);
        buffer += "\n\t},\n\n";
    }
    buffer += fmt::format(
        "\t\"rows\": {},\n\n\t\"statistics\":\n\t{{\n\t\t\"elapsed\": {:.6f},\n"
        "\t\t\"rows_read\": {},\n\t\t\"bytes_read\": {}\n\t}}\n}}\n",
        block.rows(), statistics.elapsed_seconds, statistics.rows_read, statistics.bytes_read);
    out << buffer;
}

}  // namespace granary::format_writers
