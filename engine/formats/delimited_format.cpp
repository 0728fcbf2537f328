#include "engine/formats/format_writers.h"
#include "engine/formats/text_escaping.h"
#include "engine/formats/value_text.h"

namespace granary::format_writers
{
namespace
{

constexpr std::string_view kNullText = "\\N";

char separator(Delimited dialect)
{
    return dialect == Delimited::kTabSeparated ? '\t' : ',';
}

/// CSV quotes what is not a number: strings, dates and times, arrays and maps, as ClickHouse
/// does.
bool csvQuoted(TypeId type)
{
    return isString(type) || type == TypeId::Date || type == TypeId::DateTime ||
           type == TypeId::DateTime64 || isNested(type);
}

void appendCell(std::string_view text, TypeId type, Delimited dialect, std::string& out)
{
    if (dialect == Delimited::kTabSeparated)
    {
        // An array's or map's text escapes its own strings inside their quotes; JSON text is
        // escaped as a whole, as ClickHouse does.
        if (isNested(type) && type != TypeId::Json)
        {
            out += text;
        }
        else
        {
            appendTsvEscaped(text, out);
        }
    }
    else if (csvQuoted(type))
    {
        appendCsvQuoted(text, out);
    }
    else
    {
        out += text;
    }
}

}  // namespace

void writeDelimitedHeader(const Block& block, Delimited dialect, std::ostream& out)
{
    std::string line;
    for (size_t i = 0; i < block.columns.size(); ++i)
    {
        if (i > 0)
        {
            line += separator(dialect);
        }
        appendCell(block.columns[i].name, TypeId::String, dialect, line);
    }
    line += '\n';
    out << line;
}

void writeDelimitedRows(const Block& block, Delimited dialect, std::ostream& out)
{
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        views.push_back(entry.column.view());
    }
    std::string buffer;
    std::string value;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        for (size_t i = 0; i < views.size(); ++i)
        {
            if (i > 0)
            {
                buffer += separator(dialect);
            }
            if (!views[i].isValid(row))
            {
                buffer += kNullText;  // ClickHouse writes \N in TSV and CSV alike
                continue;
            }
            if (isString(views[i].type))
            {
                appendCell(views[i].stringAt(row), TypeId::String, dialect, buffer);
                continue;
            }
            value.clear();
            appendValue(views[i], row, value);
            appendCell(value, views[i].type, dialect, buffer);
        }
        buffer += '\n';
        if (buffer.size() >= kFlushBytes)
        {
            out << buffer;
            buffer.clear();
        }
    }
    out << buffer;
}

}  // namespace granary::format_writers
