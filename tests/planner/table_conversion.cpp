#include "tests/planner/table_conversion.h"

#include <cstdio>
#include <stdexcept>

#include "engine/sql/parser.h"

namespace granary::oracle
{
namespace
{

void appendEscaped(std::string& out, const std::string& text)
{
    for (const char c : text)
    {
        switch (c)
        {
            case '\\':
                out += "\\\\";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\n':
                out += "\\n";
                break;
            default:
                out += c;
        }
    }
}

void appendTsvValue(std::string& out, const Value& value)
{
    if (const auto* text = std::get_if<std::string>(&value))
    {
        appendEscaped(out, *text);
    }
    else if (const auto* date = std::get_if<DateValue>(&value))
    {
        out += formatDate(*date);
    }
    else if (const auto* time = std::get_if<DateTimeValue>(&value))
    {
        out += formatDateTime(*time);
    }
    else if (const auto* number = std::get_if<double>(&value))
    {
        char text[40];
        std::snprintf(text, sizeof(text), "%.17g", *number);
        out += text;
    }
    else if (const auto* number = std::get_if<int64_t>(&value))
    {
        out += std::to_string(*number);
    }
    else
    {
        out += std::to_string(std::get<uint64_t>(value));
    }
}

}  // namespace

RowTable emptyTableFor(std::string_view create_table_sql)
{
    const sql::Statement statement = sql::parseStatement(create_table_sql);
    const auto* create = std::get_if<sql::CreateTableStatement>(&statement);
    if (!create)
    {
        throw std::invalid_argument("not a CREATE TABLE statement");
    }
    RowTable table;
    for (const sql::ColumnDefinition& column : create->columns)
    {
        table.names.push_back(column.name);
        table.types.push_back(column.type.id);
    }
    return table;
}

Block toBlock(const RowTable& table)
{
    Block block;
    for (size_t c = 0; c < table.names.size(); ++c)
    {
        Column column(table.types[c]);
        column.reserve(table.rows.size());
        for (const Row& row : table.rows)
        {
            appendToColumn(row[c], column);
        }
        block.columns.push_back({table.names[c], std::move(column)});
    }
    return block;
}

std::string toTsv(const RowTable& table)
{
    std::string text;
    for (const Row& row : table.rows)
    {
        for (size_t c = 0; c < row.size(); ++c)
        {
            if (c > 0)
            {
                text += '\t';
            }
            appendTsvValue(text, row[c]);
        }
        text += '\n';
    }
    return text;
}

}  // namespace granary::oracle
