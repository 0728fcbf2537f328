#pragma once

#include <cstdint>
#include <vector>

#include "engine/columns/column_view.h"

namespace granary
{

/// Row `row` of piece `piece` of a part being built from several blocks.
struct SourceRow
{
    uint32_t piece;
    uint32_t row;
};

/// The rows of the pieces (piece p holds the sort-key columns key_pieces[p], in key order),
/// ordered by the keys in the order of value_order.h, ties kept in position order (pieces in
/// turn, then rows). Empty when the rows already are in that order. `parallel` lets oneTBB
/// sort in the calling arena.
/// Whether the rows of the pieces, one piece after the other, already are in key order (ties
/// allowed). Stops at the first pair out of order.
bool inKeyOrder(const std::vector<std::vector<ColumnView>>& key_pieces);

std::vector<SourceRow> sortRows(const std::vector<std::vector<ColumnView>>& key_pieces,
                                bool parallel);

}  // namespace granary
