#pragma once

#include <fmt/format.h>

#include <charconv>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/exception.h"

namespace granary::scale
{

/// Reads one RFC 4180 record: quoted fields may hold commas, doubled quotes and line breaks.
/// False at end of input. `line` counts the lines read so far; a malformed quote throws
/// Exception(kCannotParseInput) naming `source` (a file, or what the CSV is) and the line.
bool readCsvRecord(std::istream& in, std::vector<std::string>& fields, size_t& line,
                   std::string_view source);

/// `field` as one CSV field: quoted when it holds a comma, quote or line break.
std::string quoteCsvField(std::string_view field);

/// A row from one record's `fields`, each read by the column of its position
/// (`columns[i]->read(row, field)`; a null column skips the field). A field count other than
/// the header's, or a field its column refuses, throws Exception(kCannotParseInput) naming
/// `source`, the line and the column.
template <typename Row, typename Column>
Row parseCsvRow(const std::vector<std::string>& fields, const std::vector<const Column*>& columns,
                std::string_view source, size_t line)
{
    if (fields.size() != columns.size())
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        fmt::format("{} line {}: {} fields, the header has {}", source, line,
                                    fields.size(), columns.size()));
    }
    Row row;
    for (size_t i = 0; i < fields.size(); ++i)
    {
        if (columns[i] == nullptr)
        {
            continue;
        }
        try
        {
            columns[i]->read(row, fields[i]);
        }
        catch (const Exception& error)
        {
            throw Exception(ErrorCode::kCannotParseInput,
                            fmt::format("{} line {}, column {}: {}", source, line, columns[i]->name,
                                        error.what()));
        }
    }
    return row;
}

/// The whole of `text` as a number; anything else throws Exception(kCannotParseInput).
template <typename Number>
Number parseCsvNumber(std::string_view text)
{
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
    {
        throw Exception(ErrorCode::kCannotParseInput, "not a number: '" + std::string(text) + "'");
    }
    return value;
}

}  // namespace granary::scale
