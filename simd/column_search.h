#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/string_column_view.h"
#include "simd/substring_searcher.h"

namespace granary::simd
{

/// Whether a filter keeps the rows that match (LIKE) or the rows that do not (NOT LIKE).
enum class RowSelection : uint8_t
{
    Matching,
    NotMatching,
};

/// Output convention of every row filter in Granary: a byte mask with one uint8_t per row, 1 for
/// a selected row and 0 otherwise, so that filters combine with plain byte-wise AND/OR.

/// `column LIKE '%needle%'` (or NOT LIKE, or ILIKE with a case-insensitive searcher): writes
/// row_mask[0, column.rows) and returns the number of selected rows. The whole chars buffer is
/// searched at once; an occurrence spanning two rows belongs to neither.
size_t selectRowsContaining(const SubstringSearcher& searcher, StringColumnView column,
                            RowSelection selection, uint8_t* row_mask);

/// Number of rows containing the needle, without a mask.
size_t countRowsContaining(const SubstringSearcher& searcher, StringColumnView column);

/// `position(row, needle)`: positions[i] is the 1-based byte offset of the first occurrence in
/// row i, or 0 if there is none; an empty needle is at position 1 of every row.
void findFirstPositions(const SubstringSearcher& searcher, StringColumnView column,
                        uint64_t* positions);

/// `countSubstrings(row, needle)`: counts[i] is the number of non-overlapping occurrences in row
/// i, counted left to right ("aa" occurs twice in "aaaa", not three times); 0 for an empty
/// needle.
void countSubstrings(const SubstringSearcher& searcher, StringColumnView column, uint64_t* counts);

}  // namespace granary::simd
