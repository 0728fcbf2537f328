#include "programs/scale/inflation_csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "engine/common/exception.h"
#include "programs/scale/csv_record.h"

namespace granary::scale
{

namespace
{

struct InflationColumn
{
    std::string_view name;
    bool required = true;
    void (*read)(InflationRow&, std::string_view) = nullptr;
};

/// An empty field: the script could not measure it (a failed run, no 1-thread figure).
std::optional<double> optionalNumber(std::string_view text)
{
    if (text.empty())
    {
        return std::nullopt;
    }
    return parseCsvNumber<double>(text);
}

size_t positiveThreads(std::string_view text)
{
    const auto threads = parseCsvNumber<size_t>(text);
    if (threads == 0)
    {
        throw Exception(ErrorCode::kCannotParseInput, "0 threads");
    }
    return threads;
}

const std::array<InflationColumn, 8>& inflationColumns()
{
    static const std::array<InflationColumn, 8> columns = {{
        {"suite", true, [](InflationRow& r, std::string_view text) { r.suite = text; }},
        {"query", true, [](InflationRow& r, std::string_view text) { r.query = text; }},
        {"threads", true,
         [](InflationRow& r, std::string_view text) { r.threads = positiveThreads(text); }},
        {"instructions", false,
         [](InflationRow& r, std::string_view text)
         { r.instructions = parseCsvNumber<int64_t>(text); }},
        {"scheduler_instructions", false,
         [](InflationRow& r, std::string_view text)
         { r.scheduler_instructions = parseCsvNumber<int64_t>(text); }},
        {"inflation", true,
         [](InflationRow& r, std::string_view text) { r.inflation = optionalNumber(text); }},
        {"one_thread_ms", true,
         [](InflationRow& r, std::string_view text) { r.one_thread_ms = optionalNumber(text); }},
        {"sql", false, [](InflationRow& r, std::string_view text) { r.sql = text; }},
    }};
    return columns;
}

/// For each column of the header, the one it is (nullptr: a column this reader does not know).
std::vector<const InflationColumn*> mapHeader(const std::vector<std::string>& header,
                                              std::string_view source, size_t line)
{
    std::vector<const InflationColumn*> by_position(header.size(), nullptr);
    for (const InflationColumn& column : inflationColumns())
    {
        const auto at = std::find(header.begin(), header.end(), column.name);
        if (at != header.end())
        {
            by_position[at - header.begin()] = &column;
        }
        else if (column.required)
        {
            throw Exception(
                ErrorCode::kCannotParseInput,
                fmt::format("{} line {}: no column '{}' in the header", source, line, column.name));
        }
    }
    return by_position;
}

}  // namespace

std::vector<InflationRow> readInflationCsv(std::istream& in, std::string_view source)
{
    size_t line = 0;
    std::vector<std::string> fields;
    if (!readCsvRecord(in, fields, line, source))
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        fmt::format("{}: empty, no header line", source));
    }
    const std::vector<const InflationColumn*> columns = mapHeader(fields, source, line);
    std::vector<InflationRow> rows;
    while (readCsvRecord(in, fields, line, source))
    {
        const bool blank_line = fields.size() == 1 && fields[0].empty();
        if (!blank_line)
        {
            rows.push_back(parseCsvRow<InflationRow>(fields, columns, source, line));
        }
    }
    return rows;
}

}  // namespace granary::scale
