#pragma once

#include <filesystem>
#include <memory>

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

/// Maps a part's files. Sizes, offsets and marks are checked now; column checksums on each
/// column's first use unless `verified` (the part was just written from memory). Problems are
/// Exception(kCorruptedData) naming the file.
std::shared_ptr<const Part> openPartFiles(const std::filesystem::path& directory,
                                          const TableSchema& schema, bool verified);

}  // namespace granary
