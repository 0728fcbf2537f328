#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/common/exception.h"
#include "engine/storage/table_schema.h"
#include "engine/storage/text_format.h"

namespace granary
{

/// Where parsing stopped: line counted from the start of the text given, field from 1.
struct TextParseError
{
    size_t line = 0;
    size_t field = 0;
    std::string column_name;
    std::string problem;
};

struct ParsedText
{
    Block block;       ///< Every column of the table, in schema order.
    size_t lines = 0;  ///< Lines consumed, quoted newlines of CSV included.
    std::optional<TextParseError> error;
};

/// Parses rows of TSV (backslash escapes) or CSV (RFC 4180 quoting, "" inside quotes; \r\n
/// accepted) into a table's columns. Input field i goes to schema column field_columns[i];
/// columns no field names get default values (0, empty string).
class TextParser
{
public:
    TextParser(TextFormat format, const TableSchema& schema, std::vector<size_t> field_columns);

    /// `text` holds whole rows (the last one may lack its newline).
    ParsedText parse(std::string_view text) const;

    /// The fields of the row at `text[position]` as strings (header lines); advances position
    /// past the row. nullopt on a malformed row, with `problem` set.
    static std::optional<std::vector<std::string>> parseHeader(TextFormat format,
                                                               std::string_view text,
                                                               size_t& position,
                                                               std::string& problem);

    /// Offset just past the last complete row of `text` (its newline), 0 if none. For CSV a
    /// newline inside quotes does not end a row; `text` must start at a row boundary.
    static size_t lastRowEnd(TextFormat format, std::string_view text);
    /// Offsets splitting `text` (whole rows) into about `pieces` runs of whole rows: the first
    /// is 0, the last text.size().
    static std::vector<size_t> splitRows(TextFormat format, std::string_view text, size_t pieces);

private:
    TextFormat format_;
    const TableSchema& schema_;
    std::vector<size_t> field_columns_;
};

}  // namespace granary
