#include "engine/storage/text_parser.h"

#include <algorithm>
#include <cstring>

#include "engine/storage/value_parser.h"

namespace granary
{
namespace
{

/// One field of a row: its value (escapes and quotes resolved) and whether the row goes on.
struct Field
{
    std::string_view value;
    bool last_in_row = false;
    /// `\N` (TSV and CSV), or an unquoted empty CSV field: NULL in a Nullable column.
    bool null = false;
    bool empty_unquoted = false;
};

/// ClickHouse's NULL in TSV and CSV.
constexpr std::string_view kNullMarker = "\\N";

/// Reads the field at text[position], advancing position past its delimiter and `line` past
/// quoted newlines. `scratch` holds the value when it had to be decoded. nullopt on a
/// malformed field, with `problem` set.
class FieldReader
{
public:
    FieldReader(TextFormat format, std::string_view text) : csv_(isCsv(format)), text_(text) {}

    std::optional<Field> next(size_t& position, size_t& line, std::string& scratch,
                              std::string& problem) const
    {
        return csv_ ? nextCsv(position, line, scratch, problem)
                    : nextTsv(position, scratch, problem);
    }

private:
    std::optional<Field> nextTsv(size_t& position, std::string& scratch, std::string& problem) const
    {
        const size_t start = position;
        while (position < text_.size() && text_[position] != '\t' && text_[position] != '\n')
        {
            ++position;
        }
        Field field{text_.substr(start, position - start),
                    position == text_.size() || text_[position] == '\n'};
        field.null = field.value == kNullMarker;
        if (position < text_.size())
        {
            ++position;
        }
        if (!field.null && field.value.find('\\') != std::string_view::npos)
        {
            scratch.clear();
            if (!unescapeTsvField(field.value, scratch))
            {
                problem = "bad escape sequence in '" + std::string(field.value.substr(0, 64)) + "'";
                return std::nullopt;
            }
            field.value = scratch;
        }
        return field;
    }

    std::optional<Field> nextCsv(size_t& position, size_t& line, std::string& scratch,
                                 std::string& problem) const
    {
        Field field;
        if (position < text_.size() && text_[position] == '"')
        {
            scratch.clear();
            ++position;
            while (true)
            {
                const size_t quote = text_.find('"', position);
                if (quote == std::string_view::npos)
                {
                    problem = "unterminated quoted field";
                    return std::nullopt;
                }
                const std::string_view run = text_.substr(position, quote - position);
                line += static_cast<size_t>(std::count(run.begin(), run.end(), '\n'));
                scratch.append(run);
                position = quote + 1;
                if (position < text_.size() && text_[position] == '"')
                {
                    scratch += '"';
                    ++position;
                    continue;
                }
                break;
            }
            field.value = scratch;
        }
        else
        {
            const size_t start = position;
            while (position < text_.size() && text_[position] != ',' && text_[position] != '\n')
            {
                ++position;
            }
            field.value = text_.substr(start, position - start);
            if (position < text_.size() && text_[position] == '\n' && field.value.ends_with('\r'))
            {
                field.value.remove_suffix(1);
            }
            field.null = field.value == kNullMarker;
            field.empty_unquoted = field.value.empty();
        }
        if (position == text_.size())
        {
            field.last_in_row = true;
            return field;
        }
        if (text_.substr(position, 2) == "\r\n")
        {
            ++position;
        }
        const char delimiter = text_[position++];
        if (delimiter != ',' && delimiter != '\n')
        {
            problem = "unexpected character after a quoted field";
            return std::nullopt;
        }
        field.last_in_row = delimiter == '\n';
        return field;
    }

    bool csv_;
    std::string_view text_;
};

/// Calls on_row_end(offset past the newline) for each newline that ends a row.
template <typename OnRowEnd>
void forEachRowEnd(TextFormat format, std::string_view text, OnRowEnd&& on_row_end)
{
    if (!isCsv(format))
    {
        for (size_t newline = text.find('\n'); newline != std::string_view::npos;
             newline = text.find('\n', newline + 1))
        {
            if (!on_row_end(newline + 1))
            {
                return;
            }
        }
        return;
    }
    bool quoted = false;
    for (size_t position = 0; position < text.size(); ++position)
    {
        const char byte = text[position];
        if (byte == '"')
        {
            quoted = !quoted;
        }
        else if (byte == '\n' && !quoted && !on_row_end(position + 1))
        {
            return;
        }
    }
}

}  // namespace

TextParser::TextParser(TextFormat format, const TableSchema& schema,
                       std::vector<size_t> field_columns)
    : format_(format), schema_(schema), field_columns_(std::move(field_columns))
{
}

ParsedText TextParser::parse(std::string_view text) const
{
    ParsedText result;
    std::vector<Column> columns;
    for (const ColumnSchema& column : schema_.columns)
    {
        columns.emplace_back(column.type);
    }
    const FieldReader reader(format_, text);
    std::string scratch;
    std::string problem;
    size_t position = 0;
    size_t rows = 0;
    const size_t fields = field_columns_.size();
    while (position < text.size())
    {
        const size_t row_line = result.lines + 1;
        auto fail = [&](size_t field, std::string message)
        {
            result.error =
                TextParseError{row_line, field + 1, schema_.columns[field_columns_[field]].name,
                               std::move(message)};
        };
        for (size_t field = 0; field < fields; ++field)
        {
            const std::optional<Field> value =
                reader.next(position, result.lines, scratch, problem);
            if (!value)
            {
                fail(field, problem);
                return result;
            }
            Column& column = columns[field_columns_[field]];
            const bool nullable = schema_.columns[field_columns_[field]].type.nullable;
            if (value->null && !nullable)
            {
                fail(field, "NULL (\\N) in the non-Nullable column of type " +
                                dataTypeName(schema_.columns[field_columns_[field]].type));
                return result;
            }
            // ClickHouse's input_format_csv_empty_as_default: an empty CSV field is the
            // column's default, NULL for a Nullable column.
            ParseStatus status = ParseStatus::kOk;
            if (value->null || (value->empty_unquoted && nullable))
            {
                column.appendNull();
            }
            else
            {
                status = appendParsedValue(value->value, column);
            }
            if (status != ParseStatus::kOk)
            {
                fail(field, parseFailureMessage(value->value, column.type(), status));
                return result;
            }
            if (value->last_in_row && field + 1 < fields)
            {
                fail(field, "too few fields: expected " + std::to_string(fields) + ", got " +
                                std::to_string(field + 1));
                return result;
            }
            if (!value->last_in_row && field + 1 == fields)
            {
                fail(field, "too many fields: expected " + std::to_string(fields));
                return result;
            }
        }
        ++rows;
        ++result.lines;
    }
    for (size_t index = 0; index < columns.size(); ++index)
    {
        if (std::find(field_columns_.begin(), field_columns_.end(), index) == field_columns_.end())
        {
            columns[index].appendMissing(rows);
        }
        result.block.columns.push_back({schema_.columns[index].name, std::move(columns[index])});
    }
    return result;
}

std::optional<std::vector<std::string>> TextParser::parseHeader(TextFormat format,
                                                                std::string_view text,
                                                                size_t& position,
                                                                std::string& problem)
{
    const FieldReader reader(format, text);
    std::vector<std::string> names;
    std::string scratch;
    size_t lines = 0;
    while (true)
    {
        const std::optional<Field> field = reader.next(position, lines, scratch, problem);
        if (!field)
        {
            return std::nullopt;
        }
        names.emplace_back(field->value);
        if (field->last_in_row)
        {
            return names;
        }
    }
}

size_t TextParser::lastRowEnd(TextFormat format, std::string_view text)
{
    if (!isCsv(format))
    {
        const size_t newline = text.rfind('\n');
        return newline == std::string_view::npos ? 0 : newline + 1;
    }
    size_t last = 0;
    forEachRowEnd(format, text,
                  [&](size_t end)
                  {
                      last = end;
                      return true;
                  });
    return last;
}

std::vector<size_t> TextParser::splitRows(TextFormat format, std::string_view text, size_t pieces)
{
    std::vector<size_t> bounds{0};
    const size_t target = std::max<size_t>(1, text.size() / std::max<size_t>(1, pieces));
    forEachRowEnd(format, text,
                  [&](size_t end)
                  {
                      if (end - bounds.back() >= target && end < text.size())
                      {
                          bounds.push_back(end);
                      }
                      return true;
                  });
    bounds.push_back(text.size());
    return bounds;
}

}  // namespace granary
