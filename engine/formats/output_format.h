#pragma once

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
void writeBlock(const Block& block, OutputFormat format, std::ostream& out);

/// Writes the header line of the *WithNames formats (nothing for the others), so that a caller
/// streaming many blocks can write it once and then each block with writeBlockRows.
void writeHeader(const Block& block, OutputFormat format, std::ostream& out);
/// Writes the rows of `block` without any header (PrettyCompact always draws its whole table).
void writeBlockRows(const Block& block, OutputFormat format, std::ostream& out);

}  // namespace granary
