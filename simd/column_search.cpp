#include "simd/column_search.h"

#include <algorithm>

namespace granary::simd
{

size_t selectRowsContaining(const SubstringSearcher& searcher, StringColumnView column,
                            RowSelection selection, uint8_t* row_mask)
{
    const bool keep_matching = selection == RowSelection::Matching;
    if (searcher.needle().empty())
    {
        std::fill_n(row_mask, column.rows, keep_matching ? 1 : 0);
        return keep_matching ? column.rows : 0;
    }
    // Rows start out as if nothing matched; the kernel flips only the rows that do.
    std::fill_n(row_mask, column.rows, keep_matching ? 0 : 1);
    const size_t matching =
        searcher.kernels().mark_rows(searcher.plan(), column, row_mask, keep_matching ? 1 : 0);
    return keep_matching ? matching : column.rows - matching;
}

size_t countRowsContaining(const SubstringSearcher& searcher, StringColumnView column)
{
    if (searcher.needle().empty())
    {
        return column.rows;
    }
    return searcher.kernels().mark_rows(searcher.plan(), column, nullptr, 1);
}

void findFirstPositions(const SubstringSearcher& searcher, StringColumnView column,
                        uint64_t* positions)
{
    if (searcher.needle().empty())
    {
        std::fill_n(positions, column.rows, 1);
        return;
    }
    std::fill_n(positions, column.rows, 0);
    searcher.kernels().first_positions(searcher.plan(), column, positions);
}

void countSubstrings(const SubstringSearcher& searcher, StringColumnView column, uint64_t* counts)
{
    std::fill_n(counts, column.rows, 0);
    if (!searcher.needle().empty())
    {
        searcher.kernels().count_occurrences(searcher.plan(), column, counts);
    }
}

}  // namespace granary::simd
