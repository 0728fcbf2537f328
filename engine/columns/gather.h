#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// Appends to `to` the rows begin + offsets[i] of `source` (NULLs included), in the order given.
/// `to` must hold source's type, or be empty (it then takes source's type). Throws Exception
/// kLogicalError for a non-empty `to` of another type.
void gatherRows(const ColumnView& source, size_t begin, std::span<const uint32_t> offsets,
                Column& to);

/// Replaces the rows of `to` with rows offsets[i] of `source` (gatherRows into `to` emptied, so
/// that a column gathered again and again reuses its memory) and returns its view.
ColumnView replaceWithRows(const ColumnView& source, std::span<const uint32_t> offsets, Column& to);

/// Appends to `to` the rows `rows` of every column of `from` (gatherRows, column by column);
/// an empty `to` takes from's names and types.
void gatherBlockRows(const Block& from, std::span<const uint32_t> rows, Block& to);

}  // namespace granary
