#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/columns/column_view.h"

namespace granary
{

struct SortKey
{
    ColumnView column;
    bool descending = false;
};

/// The row numbers of the first `limit` rows in the order of `keys` (all rows when limit is
/// at least `rows`). Ties keep row order, so the result is deterministic. A top-N needs
/// O(rows · log limit) comparisons (partial sort), not a full sort.
std::vector<uint32_t> sortedPermutation(const std::vector<SortKey>& keys, size_t rows,
                                        size_t limit);

}  // namespace granary
