#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "engine/storage/part.h"
#include "engine/storage/part_builder.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// A part's folder: per column `c<i>.bin` (fixed width) or `c<i>.chars` + `c<i>.offsets`
/// (rows + 1 uint64 offsets), per sort-key column `k<j>.marks` (granule minimums then
/// maximums, each laid out like a column), and `metadata.json` with the row count and each
/// file's size and checksum. Writes every file of the rows durably into `directory` (which
/// must exist), streaming each column through a small buffer; `parallel` lets oneTBB write
/// columns in the calling arena.
void writePartFiles(const SortedRows& rows, const TableSchema& schema,
                    const std::filesystem::path& directory, bool parallel);

class PartFilesWriter;

/// Writes a part's files like writePartFiles from rows that come already in the part's order,
/// piece after piece, so that the writer need not hold them all (gen-hits writes each
/// generated chunk as it comes). Every piece but the last holds whole granules.
class SortedPartWriter
{
public:
    /// `directory` must exist. The schema must outlive the writer.
    SortedPartWriter(const TableSchema& schema, const std::filesystem::path& directory);
    SortedPartWriter(const SortedPartWriter&) = delete;
    SortedPartWriter& operator=(const SortedPartWriter&) = delete;
    ~SortedPartWriter();

    /// Writes the rows of `columns` (one view per column, in schema order) after the previous
    /// ones. Throws kBadArguments when they would break the sort-key order. `parallel` lets
    /// oneTBB write columns in the calling arena.
    void append(const std::vector<ColumnView>& columns, bool parallel);
    size_t rows() const { return rows_; }
    /// Writes the marks and the metadata; every file is durable on return.
    void finish();

private:
    std::vector<ColumnView> lastKeyViews() const;

    const TableSchema& schema_;
    std::unique_ptr<PartFilesWriter> writer_;
    /// The sort-key values of the last row written, one row per key column.
    std::vector<Column> last_keys_;
    size_t rows_ = 0;
};

/// Maps a part's files. Sizes, offsets and marks are checked now; column checksums on each
/// column's first use unless `verified` (the part was just written from memory). Problems are
/// Exception(kCorruptedData) naming the file.
std::shared_ptr<const Part> openPartFiles(const std::filesystem::path& directory,
                                          const TableSchema& schema, bool verified);

}  // namespace granary
