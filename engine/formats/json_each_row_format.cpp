#include <cmath>

#include "engine/formats/format_writers.h"
#include "engine/formats/json_column.h"
#include "engine/formats/text_escaping.h"
#include "engine/formats/value_text.h"

namespace granary::format_writers
{

namespace
{

/// A JSON array, or for a Map an object whose keys are the keys' text.
void appendJsonNested(const ColumnView& column, size_t row, std::string& value, std::string& out)
{
    const bool is_map = column.type == TypeId::Map;
    out += is_map ? '{' : '[';
    for (uint64_t element = column.offsets[row]; element < column.offsets[row + 1]; ++element)
    {
        if (element != column.offsets[row])
        {
            out += ',';
        }
        if (!is_map)
        {
            appendJsonValue(column.children[0], element, value, out);
            continue;
        }
        value.clear();
        appendValue(column.children[0], element, value);
        appendJsonString(value, out);
        out += ':';
        appendJsonValue(column.children[1], element, value, out);
    }
    out += is_map ? '}' : ']';
}

}  // namespace

void appendJsonValue(const ColumnView& column, size_t row, std::string& value, std::string& out)
{
    if (!column.isValid(row))
    {
        out += "null";
        return;
    }
    if (isString(column.type))
    {
        appendJsonString(column.stringAt(row), out);
        return;
    }
    if (column.type == TypeId::Json)
    {
        appendJsonRowText(column, row, out);
        return;
    }
    if (isNested(column.type))
    {
        appendJsonNested(column, row, value, out);
        return;
    }
    value.clear();
    appendValue(column, row, value);
    if (column.type == TypeId::Date || column.type == TypeId::DateTime ||
        column.type == TypeId::DateTime64)
    {
        appendJsonString(value, out);
    }
    else if (isFloat(column.type) && (value == "nan" || value == "inf" || value == "-inf"))
    {
        out += "null";  // JSON has no NaN or infinity.
    }
    else
    {
        out += value;
    }
}

void writeJsonEachRow(const Block& block, std::ostream& out)
{
    std::vector<std::string> keys;
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        std::string key;
        appendJsonString(entry.name, key);
        keys.push_back(key + ':');
        views.push_back(entry.column.view());
    }
    std::string buffer;
    std::string value;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        buffer += '{';
        for (size_t i = 0; i < views.size(); ++i)
        {
            if (i > 0)
            {
                buffer += ',';
            }
            buffer += keys[i];
            appendJsonValue(views[i], row, value, buffer);
        }
        buffer += "}\n";
        if (buffer.size() >= kFlushBytes)
        {
            out << buffer;
            buffer.clear();
        }
    }
    out << buffer;
}

}  // namespace granary::format_writers
