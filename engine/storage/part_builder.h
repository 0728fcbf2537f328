#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/storage/part.h"
#include "engine/storage/sort_permutation.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// The rows of a new part's pieces (each: one view per column in schema order, all of one
/// length) in the part's order: stably sorted by the schema's sort key. Columns are read out
/// in row ranges, so a writer can stream a part through small reused buffers.
class SortedRows
{
public:
    /// `parallel` lets oneTBB sort in the calling arena. The pieces must outlive this object.
    SortedRows(const std::vector<std::vector<ColumnView>>& pieces, const TableSchema& schema,
               bool parallel);

    size_t rows() const { return rows_; }

    /// Rows [begin, end) of column `column` in the part's order; replaces the rows of `into`
    /// (a column of that type) and reuses its buffers.
    void gather(size_t column, size_t begin, size_t end, Column& into) const;
    /// Rows [begin, end) of column `column` as a view of the piece that holds them all in the
    /// part's order, so that they need no copy; nullopt when there is none.
    std::optional<ColumnView> inPlace(size_t column, size_t begin, size_t end) const;

private:
    /// Unsorted rows only: calls visit(piece, first, count, at) for each run of rows [begin,
    /// end) that lies in one piece (rows first.. of the piece, begin + at.. of the part).
    template <typename Visit>
    void forEachRun(size_t begin, size_t end, Visit visit) const;
    void gatherFixed(size_t column, size_t begin, size_t end, Column& into) const;
    /// The rows' NULLs (rows whose source is NULL), after their values.
    void gatherValidity(size_t column, size_t begin, size_t end, Column& into) const;
    void gatherStrings(size_t column, size_t begin, size_t end, Column& into) const;
    void gatherNested(size_t column, size_t begin, size_t end, Column& into) const;

    const std::vector<std::vector<ColumnView>>& pieces_;
    /// Empty when the pieces, one after the other, already are in the part's order.
    std::vector<SourceRow> order_;
    /// The first row of each piece, and the row count at the end.
    std::vector<size_t> piece_starts_;
    size_t rows_ = 0;
    /// Per nested column, its pieces one after the other, made on first use when the rows
    /// need reordering: gathering then takes index lists, not a call per row.
    mutable std::vector<std::once_flag> concatenated_once_;
    mutable std::vector<Column> concatenated_;
};

/// The columns of a new part, sorted, with the granule bounds of each sort-key column.
struct PartData
{
    size_t rows = 0;
    std::vector<Column> columns;
    std::vector<Column> granule_min;
    std::vector<Column> granule_max;
};

/// All columns of the rows, in memory. `parallel` lets oneTBB gather in the calling arena.
PartData buildPartData(const SortedRows& rows, const TableSchema& schema, bool parallel);

/// Per granule of kGranuleRows rows of `values`: the least and the greatest value, appended.
void computeGranuleBounds(const ColumnView& values, Column& minimums, Column& maximums);

std::shared_ptr<const Part> makeInMemoryPart(PartData data);

}  // namespace granary
