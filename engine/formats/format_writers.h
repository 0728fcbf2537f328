#pragma once

#include <ostream>

#include "engine/columns/block.h"
#include "engine/formats/output_format.h"

// The writers behind writeBlock, one per family of formats.
namespace granary::format_writers
{

enum class Delimited
{
    kTabSeparated,
    kCommaSeparated,
};

void writeDelimitedHeader(const Block& block, Delimited dialect, std::ostream& out);
void writeDelimitedRows(const Block& block, Delimited dialect, std::ostream& out);
void writeJsonEachRow(const Block& block, std::ostream& out);
/// ClickHouse's JSON format: meta (names, types), data (one object per row), totals (one
/// object, where given), rows, statistics.
void writeJson(const Block& block, const Block* totals, const OutputStatistics& statistics,
               std::ostream& out);
/// Appends one value as JSON: strings, Date and DateTime quoted; NaN and infinities null.
/// `scratch` is reused between calls.
void appendJsonValue(const ColumnView& column, size_t row, std::string& scratch, std::string& out);
/// Appends one value in RowBinary (row_binary_reader.h has the layout); JSON values in
/// ClickHouse's binary JSON with every path tagged (Dynamic), as a plain JSON type reads them.
void appendRowBinaryValue(const ColumnView& column, size_t row, std::string& buffer);
void writeRowBinaryHeader(const Block& block, std::ostream& out);
void writeRowBinaryRows(const Block& block, std::ostream& out);
void writePrettyCompact(const Block& block, std::ostream& out);

/// Rows are formatted into a string that is flushed to the stream past this size.
inline constexpr size_t kFlushBytes = 1 << 16;

}  // namespace granary::format_writers
