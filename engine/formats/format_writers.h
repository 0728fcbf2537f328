#pragma once

#include <ostream>

#include "engine/columns/block.h"

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
void writePrettyCompact(const Block& block, std::ostream& out);

/// Rows are formatted into a string that is flushed to the stream past this size.
inline constexpr size_t kFlushBytes = 1 << 16;

}  // namespace granary::format_writers
