#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/columns/column_view.h"

namespace granary
{

/// Of `rows` (row indexes into `keys`, in the order they count), those whose occurrence among
/// the rows with equal keys lies in [offset, offset + limit), in their order: LIMIT n OFFSET m
/// BY keys, and DISTINCT (offset 0, limit 1) over a result's columns. Every type is a key,
/// nested ones included; a NULL equals only NULL.
std::vector<uint32_t> rowsWithinKeyLimit(const std::vector<ColumnView>& keys,
                                         std::span<const uint32_t> rows, uint64_t offset,
                                         uint64_t limit);

}  // namespace granary
