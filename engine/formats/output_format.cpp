#include "engine/formats/output_format.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/formats/format_writers.h"

namespace granary
{
namespace
{

constexpr std::array<std::pair<std::string_view, OutputFormat>, 13> kNames = {{
    {"prettycompact", OutputFormat::kPrettyCompact},
    {"tsv", OutputFormat::kTSV},
    {"tabseparated", OutputFormat::kTSV},
    {"tsvwithnames", OutputFormat::kTSVWithNames},
    {"tabseparatedwithnames", OutputFormat::kTSVWithNames},
    {"csv", OutputFormat::kCSV},
    {"csvwithnames", OutputFormat::kCSVWithNames},
    {"jsoneachrow", OutputFormat::kJSONEachRow},
    {"ndjson", OutputFormat::kJSONEachRow},
    {"jsonlines", OutputFormat::kJSONEachRow},
    {"json", OutputFormat::kJSON},
    {"rowbinary", OutputFormat::kRowBinary},
    {"rowbinarywithnamesandtypes", OutputFormat::kRowBinaryWithNamesAndTypes},
}};

using format_writers::Delimited;

}  // namespace

OutputFormat outputFormatFromName(std::string_view name)
{
    const std::string lower = lowerCaseAscii(name);
    for (const auto& [known, format] : kNames)
    {
        if (known == lower)
        {
            return format;
        }
    }
    throw Exception(
        ErrorCode::kUnknownFormat,
        "unknown output format '" + std::string(name) +
            "' (known: PrettyCompact, TSV, TSVWithNames, CSV, CSVWithNames, JSONEachRow, JSON, "
            "RowBinary, RowBinaryWithNamesAndTypes)");
}

void writeHeader(const Block& block, OutputFormat format, std::ostream& out)
{
    if (format == OutputFormat::kTSVWithNames)
    {
        format_writers::writeDelimitedHeader(block, Delimited::kTabSeparated, out);
    }
    else if (format == OutputFormat::kCSVWithNames)
    {
        format_writers::writeDelimitedHeader(block, Delimited::kCommaSeparated, out);
    }
    else if (format == OutputFormat::kRowBinaryWithNamesAndTypes)
    {
        format_writers::writeRowBinaryHeader(block, out);
    }
}

void writeBlockRows(const Block& block, OutputFormat format, std::ostream& out)
{
    switch (format)
    {
        case OutputFormat::kPrettyCompact:
            format_writers::writePrettyCompact(block, out);
            return;
        case OutputFormat::kTSV:
        case OutputFormat::kTSVWithNames:
            format_writers::writeDelimitedRows(block, Delimited::kTabSeparated, out);
            return;
        case OutputFormat::kCSV:
        case OutputFormat::kCSVWithNames:
            format_writers::writeDelimitedRows(block, Delimited::kCommaSeparated, out);
            return;
        case OutputFormat::kJSONEachRow:
            format_writers::writeJsonEachRow(block, out);
            return;
        case OutputFormat::kRowBinary:
        case OutputFormat::kRowBinaryWithNamesAndTypes:
            format_writers::writeRowBinaryRows(block, out);
            return;
        case OutputFormat::kJSON:
            throw Exception(ErrorCode::kBadArguments,
                            "the JSON format is one document: write it whole with writeBlock");
    }
}

void writeTotals(const Block& totals, OutputFormat format, std::ostream& out)
{
    switch (format)
    {
        case OutputFormat::kPrettyCompact:
            out << "\nTotals:\n";
            writeBlockRows(totals, format, out);
            return;
        case OutputFormat::kTSV:
        case OutputFormat::kTSVWithNames:
        case OutputFormat::kCSV:
        case OutputFormat::kCSVWithNames:
            out << '\n';
            writeBlockRows(totals, format, out);
            return;
        case OutputFormat::kJSONEachRow:
        case OutputFormat::kRowBinary:
        case OutputFormat::kRowBinaryWithNamesAndTypes:
            return;
        case OutputFormat::kJSON:
            throw Exception(ErrorCode::kBadArguments,
                            "the JSON format is one document: write its totals with writeBlock");
    }
}

void writeBlock(const Block& block, OutputFormat format, std::ostream& out,
                const OutputStatistics& statistics, const Block* totals)
{
    if (format == OutputFormat::kJSON)
    {
        format_writers::writeJson(block, totals, statistics, out);
        return;
    }
    writeHeader(block, format, out);
    writeBlockRows(block, format, out);
    if (totals != nullptr)
    {
        writeTotals(*totals, format, out);
    }
}

}  // namespace granary
