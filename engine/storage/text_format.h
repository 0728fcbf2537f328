#pragma once

#include <string_view>

namespace granary
{

enum class TextFormat
{
    kTSV,
    kTSVWithNames,
    kCSV,
    kCSVWithNames,
};

/// TSV, TabSeparated, TSVWithNames, TabSeparatedWithNames, CSV, CSVWithNames
/// (case-insensitively); kBadArguments naming the format otherwise.
TextFormat textFormatFromName(std::string_view name);

inline bool isCsv(TextFormat format)
{
    return format == TextFormat::kCSV || format == TextFormat::kCSVWithNames;
}
inline bool hasHeader(TextFormat format)
{
    return format == TextFormat::kTSVWithNames || format == TextFormat::kCSVWithNames;
}

}  // namespace granary
