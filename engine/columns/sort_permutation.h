#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/columns/column_view.h"

namespace granary
{

struct SortKey
{
    ColumnView column;
    bool descending = false;
    /// Where NULL rows (the view's validity) go, whatever the direction: last by default.
    bool nulls_first = false;
};

/// The row numbers of the first `limit` rows in the order of `keys` (all rows when limit is
/// at least `rows`). Ties keep row order, so the result is deterministic. A top-N needs
/// O(rows · log limit) comparisons (partial sort), not a full sort.
std::vector<uint32_t> sortedPermutation(const std::vector<SortKey>& keys, size_t rows,
                                        size_t limit);

/// The rows among the first `limit` in the order of `keys` (ties by row), in ascending row
/// order: a selection in linear time where the caller needs the set, not its order.
std::vector<uint32_t> firstRowsInRowOrder(const std::vector<SortKey>& keys, size_t rows,
                                          size_t limit);

/// The rows that may rank among the first `limit` (0 < limit < rows) of an order led by
/// `first`: those whose value there is no worse than the limit-th best one, in ascending row
/// order. The rest of the order then needs computing for these rows only (a top-N by count
/// with a key to break ties reads the keys of the few groups tied at the boundary, not all).
std::vector<uint32_t> topCandidates(const SortKey& first, size_t rows, size_t limit);

/// The row among the first `rows` of `key` that comes last in its order (one of them, where
/// several tie); nullopt where the column has NULLs or values that do not compare as one type
/// (Array...).
std::optional<uint32_t> lastInOrder(const SortKey& key, size_t rows);

/// Sets `rows` to the rows of `values` that come before row `bound_row` of `bound` (a column
/// of the same type) in the order `descending` gives, and with `with_ties` those that tie with
/// it too: the rows that may still rank ahead of it. All rows where either holds NULLs.
void rowsAheadOf(const ColumnView& values, bool descending, const ColumnView& bound,
                 size_t bound_row, bool with_ties, std::vector<uint32_t>& rows);

}  // namespace granary
