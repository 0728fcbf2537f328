#pragma once

#include <cstddef>
#include <ostream>
#include <string_view>

#include "engine/columns/block.h"

namespace granary
{

/// The text formats Granary writes, with ClickHouse's names and conventions.
enum class OutputFormat
{
    kPrettyCompact,
    kTSV,
    kTSVWithNames,
    kCSV,
    kCSVWithNames,
    kJSONEachRow,
    kJSON,
    kRowBinary,
    kRowBinaryWithNamesAndTypes,
};

/// What the JSON format reports under "statistics".
struct OutputStatistics
{
    double elapsed_seconds = 0;
    size_t rows_read = 0;
    size_t bytes_read = 0;
};

/// Case-insensitive; accepts ClickHouse's long names too (TabSeparated, TabSeparatedWithNames).
/// Throws Exception(kBadArguments) naming an unknown format.
OutputFormat outputFormatFromName(std::string_view name);

/// Writes all rows of `block`. Conventions (docs/formats.md):
/// - TSV: values unquoted, \t \n \r \b \f \0 \\ \' escaped with a backslash.
/// - CSV: strings, dates and times double-quoted with "" doubling; numbers bare.
/// - JSONEachRow: one object per line; 64-bit integers are bare numbers (ClickHouse quotes
///   them by default); NaN and infinities are null; invalid UTF-8 bytes become \ufffd.
/// - PrettyCompact: ClickHouse's box table, numbers right-aligned; an empty block writes nothing.
/// - JSON: {"meta": [names, types], "data": [rows as JSONEachRow's objects], "rows": N,
///   "statistics": `statistics`}.
/// - RowBinary: values back to back, little-endian, strings as VarUInt length + bytes;
///   RowBinaryWithNamesAndTypes first writes the column count, the names and the type names.
/// `totals` (WITH TOTALS' row, the block's columns) follows the rows as writeTotals writes it,
/// or as JSON's "totals" object.
void writeBlock(const Block& block, OutputFormat format, std::ostream& out,
                const OutputStatistics& statistics = {}, const Block* totals = nullptr);

/// Writes the header of the *WithNames formats (nothing for the others), so that a caller
/// streaming many blocks can write it once and then each block with writeBlockRows. JSON is
/// one document: only writeBlock writes it (writeBlockRows throws kBadArguments).
void writeHeader(const Block& block, OutputFormat format, std::ostream& out);
/// Writes the rows of `block` without any header (PrettyCompact always draws its whole table).
void writeBlockRows(const Block& block, OutputFormat format, std::ostream& out);
/// Writes WITH TOTALS' row after the rows, as ClickHouse does: TSV and CSV an empty line then
/// the row, PrettyCompact "Totals:" over a table of its own; JSONEachRow and RowBinary, whose
/// readers could not tell it from a row, nothing. JSON takes it in writeBlock (kBadArguments).
void writeTotals(const Block& totals, OutputFormat format, std::ostream& out);

}  // namespace granary
