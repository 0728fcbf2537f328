#include "programs/scale/csv_record.h"

#include <fmt/format.h>

namespace granary::scale
{

bool readCsvRecord(std::istream& in, std::vector<std::string>& fields, size_t& line,
                   std::string_view source)
{
    fields.clear();
    if (in.peek() == std::char_traits<char>::eof())
    {
        return false;
    }
    ++line;
    std::string field;
    bool quoted = false;
    bool after_quote = false;
    for (int next = in.get(); next != std::char_traits<char>::eof(); next = in.get())
    {
        const char ch = static_cast<char>(next);
        if (quoted)
        {
            if (ch == '"')
            {
                if (in.peek() == '"')
                {
                    field += '"';
                    in.get();
                }
                else
                {
                    quoted = false;
                    after_quote = true;
                }
            }
            else
            {
                line += ch == '\n' ? 1 : 0;
                field += ch;
            }
            continue;
        }
        if (ch == ',')
        {
            fields.push_back(std::move(field));
            field.clear();
            after_quote = false;
        }
        else if (ch == '\n')
        {
            break;
        }
        else if (ch == '\r')
        {
            continue;
        }
        else if (ch == '"' && field.empty() && !after_quote)
        {
            quoted = true;
        }
        else if (after_quote)
        {
            throw Exception(ErrorCode::kCannotParseInput,
                            fmt::format("{} line {}: text after a closing quote", source, line));
        }
        else
        {
            field += ch;
        }
    }
    if (quoted)
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        fmt::format("{} line {}: unterminated quoted field", source, line));
    }
    fields.push_back(std::move(field));
    return true;
}

std::string quoteCsvField(std::string_view field)
{
    if (field.find_first_of(",\"\n\r") == std::string_view::npos)
    {
        return std::string(field);
    }
    std::string out = "\"";
    for (char ch : field)
    {
        out += ch;
        if (ch == '"')
        {
            out += '"';
        }
    }
    return out + '"';
}

}  // namespace granary::scale
