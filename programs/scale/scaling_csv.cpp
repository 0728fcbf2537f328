#include "programs/scale/scaling_csv.h"

#include <fmt/format.h>

#include <charconv>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/common/exception.h"

namespace granary::scale
{

namespace
{

using FieldWriter = std::function<std::string(const ScalingRow&)>;
using FieldReader = std::function<void(ScalingRow&, std::string_view)>;

struct CsvColumn
{
    std::string name;
    FieldWriter write;
    FieldReader read;
};

template <typename Number>
Number parseNumber(std::string_view text)
{
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
    {
        throw Exception(ErrorCode::kCannotParseInput, "not a number: '" + std::string(text) + "'");
    }
    return value;
}

/// `field` is a generic lambda returning a reference to the number in a (const) row.
template <typename Field>
CsvColumn numberColumn(std::string name, Field field)
{
    using Number = std::remove_cvref_t<decltype(field(std::declval<ScalingRow&>()))>;
    return {std::move(name),
            [field](const ScalingRow& row) { return fmt::format("{}", field(row)); },
            [field](ScalingRow& row, std::string_view text)
            { field(row) = parseNumber<Number>(text); }};
}

CsvColumn textColumn(std::string name, std::string ScalingRow::*member)
{
    return {std::move(name), [member](const ScalingRow& row) { return row.*member; },
            [member](ScalingRow& row, std::string_view text) { row.*member = text; }};
}

const std::vector<CsvColumn>& csvColumns()
{
    static const std::vector<CsvColumn> columns = []
    {
        std::vector<CsvColumn> c;
        c.push_back(textColumn("query", &ScalingRow::query));
        c.push_back(numberColumn(
            "threads", [](auto& r) -> auto& { return r.threads; }));
        c.push_back(numberColumn(
            "runs", [](auto& r) -> auto& { return r.runs; }));
        c.push_back(numberColumn(
            "best_seconds", [](auto& r) -> auto& { return r.best_seconds; }));
        c.push_back(numberColumn(
            "speedup", [](auto& r) -> auto& { return r.speedup; }));
        c.push_back(numberColumn(
            "efficiency", [](auto& r) -> auto& { return r.efficiency; }));
        c.push_back({"oversubscribed",
                     [](const ScalingRow& r) { return std::string(r.oversubscribed ? "1" : "0"); },
                     [](ScalingRow& r, std::string_view text)
                     { r.oversubscribed = parseNumber<int>(text) != 0; }});
        c.push_back(numberColumn(
            "work_seconds", [](auto& r) -> auto& { return r.work_seconds; }));
        c.push_back(numberColumn(
            "span_seconds", [](auto& r) -> auto& { return r.span_seconds; }));
        for (size_t i = 0; i < kQueryPhaseCount; ++i)
        {
            const std::string phase(phaseName(static_cast<QueryPhase>(i)));
            c.push_back(numberColumn(
                phase + "_wall_seconds", [i](auto& r) -> auto& {
                    return r.phases[i].wall_seconds;
                }));
            c.push_back(numberColumn(
                phase + "_work_seconds", [i](auto& r) -> auto& {
                    return r.phases[i].work_seconds;
                }));
            c.push_back(numberColumn(
                phase + "_span_seconds", [i](auto& r) -> auto& {
                    return r.phases[i].span_seconds;
                }));
            c.push_back(numberColumn(
                phase + "_tasks", [i](auto& r) -> auto& { return r.phases[i].tasks; }));
        }
        c.push_back(numberColumn(
            "partials", [](auto& r) -> auto& { return r.partials; }));
        c.push_back(textColumn("merge_path", &ScalingRow::merge_path));
        c.push_back(textColumn("distinct_merge_path", &ScalingRow::distinct_merge_path));
        c.push_back(numberColumn(
            "result_rows", [](auto& r) -> auto& { return r.result_rows; }));
        c.push_back(numberColumn(
            "peak_memory_bytes", [](auto& r) -> auto& { return r.peak_memory_bytes; }));
        c.push_back(numberColumn(
            "minor_page_faults", [](auto& r) -> auto& { return r.minor_page_faults; }));
        for (size_t i = 0; i < kEventsOfInterest.size(); ++i)
        {
            c.push_back(numberColumn(
                std::string(profileEventName(kEventsOfInterest[i])), [i](auto& r) -> auto& {
                    return r.events[i];
                }));
        }
        c.push_back(textColumn("error", &ScalingRow::error));
        c.push_back(textColumn("sql", &ScalingRow::sql));
        return c;
    }();
    return columns;
}

std::string quoteField(const std::string& field)
{
    if (field.find_first_of(",\"\n\r") == std::string::npos)
    {
        return field;
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

/// Reads one record (quoted fields may span lines); false at end of input.
bool readRecord(std::istream& in, std::vector<std::string>& fields, size_t& line)
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
                            fmt::format("scaling CSV line {}: text after a closing quote", line));
        }
        else
        {
            field += ch;
        }
    }
    if (quoted)
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        fmt::format("scaling CSV line {}: unterminated quoted field", line));
    }
    fields.push_back(std::move(field));
    return true;
}

}  // namespace

void writeScalingCsv(const std::vector<ScalingRow>& rows, std::ostream& out)
{
    const auto& columns = csvColumns();
    for (size_t i = 0; i < columns.size(); ++i)
    {
        out << (i == 0 ? "" : ",") << columns[i].name;
    }
    out << '\n';
    for (const ScalingRow& row : rows)
    {
        for (size_t i = 0; i < columns.size(); ++i)
        {
            out << (i == 0 ? "" : ",") << quoteField(columns[i].write(row));
        }
        out << '\n';
    }
}

std::vector<ScalingRow> readScalingCsv(std::istream& in)
{
    const auto& columns = csvColumns();
    size_t line = 0;
    std::vector<std::string> header;
    if (!readRecord(in, header, line))
    {
        throw Exception(ErrorCode::kCannotParseInput, "scaling CSV: empty input, no header");
    }
    std::vector<const CsvColumn*> by_position(header.size(), nullptr);
    for (size_t i = 0; i < header.size(); ++i)
    {
        for (const CsvColumn& column : columns)
        {
            if (column.name == header[i])
            {
                by_position[i] = &column;
            }
        }
    }
    std::vector<ScalingRow> rows;
    std::vector<std::string> fields;
    while (readRecord(in, fields, line))
    {
        if (fields.size() == 1 && fields[0].empty())
        {
            continue;
        }
        if (fields.size() != header.size())
        {
            throw Exception(ErrorCode::kCannotParseInput,
                            fmt::format("scaling CSV line {}: {} fields, the header has {}", line,
                                        fields.size(), header.size()));
        }
        ScalingRow row;
        for (size_t i = 0; i < fields.size(); ++i)
        {
            if (by_position[i] == nullptr)
            {
                continue;
            }
            try
            {
                by_position[i]->read(row, fields[i]);
            }
            catch (const Exception& error)
            {
                throw Exception(ErrorCode::kCannotParseInput,
                                fmt::format("scaling CSV line {}, column {}: {}", line, header[i],
                                            error.what()));
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace granary::scale
