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

constexpr std::array<std::pair<std::string_view, OutputFormat>, 10> kNames = {{
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
        ErrorCode::kBadArguments,
        "unknown output format '" + std::string(name) +
            "' (known: PrettyCompact, TSV, TSVWithNames, CSV, CSVWithNames, JSONEachRow)");
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
    }
}

void writeBlock(const Block& block, OutputFormat format, std::ostream& out)
{
    writeHeader(block, format, out);
    writeBlockRows(block, format, out);
}

}  // namespace granary
