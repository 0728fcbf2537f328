#include "programs/scale/scaling_csv.h"

#include <fmt/format.h>

#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/common/exception.h"
#include "programs/scale/csv_record.h"

namespace granary::scale
{

namespace
{

/// How parse errors name the input: "scaling CSV line 7: ...".
constexpr std::string_view kSource = "scaling CSV";

using FieldWriter = std::function<std::string(const ScalingRow&)>;
using FieldReader = std::function<void(ScalingRow&, std::string_view)>;

struct CsvColumn
{
    std::string name;
    FieldWriter write;
    FieldReader read;
};

/// `field` is a generic lambda returning a reference to the number in a (const) row.
template <typename Field>
CsvColumn numberColumn(std::string name, Field field)
{
    using Number = std::remove_cvref_t<decltype(field(std::declval<ScalingRow&>()))>;
    return {std::move(name),
            [field](const ScalingRow& row) { return fmt::format("{}", field(row)); },
            [field](ScalingRow& row, std::string_view text)
            { field(row) = parseCsvNumber<Number>(text); }};
}

/// A figure computed from the row's other columns, written for the reader of the file; reading
/// it back would only repeat the computation, so the reader skips it.
CsvColumn derivedColumn(std::string name, double (ScalingRow::*figure)() const)
{
    return {std::move(name),
            [figure](const ScalingRow& row) { return fmt::format("{}", (row.*figure)()); },
            [](ScalingRow&, std::string_view) {}};
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
                     { r.oversubscribed = parseCsvNumber<int>(text) != 0; }});
        c.push_back(numberColumn(
            "work_seconds", [](auto& r) -> auto& { return r.work_seconds; }));
        c.push_back(numberColumn(
            "span_seconds", [](auto& r) -> auto& { return r.span_seconds; }));
        c.push_back(numberColumn(
            "median_work_seconds", [](auto& r) -> auto& { return r.medians.work_seconds; }));
        c.push_back(numberColumn(
            "median_span_seconds", [](auto& r) -> auto& { return r.medians.span_seconds; }));
        c.push_back(derivedColumn("work_per_span", &ScalingRow::workPerSpan));
        c.push_back(derivedColumn("work_per_median_span", &ScalingRow::workPerMedianSpan));
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
                phase + "_median_work_seconds", [i](auto& r) -> auto& {
                    return r.medians.phase_work_seconds[i];
                }));
            c.push_back(numberColumn(
                phase + "_median_span_seconds", [i](auto& r) -> auto& {
                    return r.medians.phase_span_seconds[i];
                }));
            c.push_back(numberColumn(
                phase + "_tasks", [i](auto& r) -> auto& { return r.phases[i].tasks; }));
        }
        c.push_back(numberColumn(
            "outside_phases_seconds", [](auto& r) -> auto& { return r.outside_phases_seconds; }));
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
            out << (i == 0 ? "" : ",") << quoteCsvField(columns[i].write(row));
        }
        out << '\n';
    }
}

std::vector<ScalingRow> readScalingCsv(std::istream& in)
{
    const auto& columns = csvColumns();
    size_t line = 0;
    std::vector<std::string> header;
    if (!readCsvRecord(in, header, line, kSource))
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
    while (readCsvRecord(in, fields, line, kSource))
    {
        if (fields.size() == 1 && fields[0].empty())
        {
            continue;
        }
        ScalingRow row = parseCsvRow<ScalingRow>(fields, by_position, kSource, line);
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace granary::scale
