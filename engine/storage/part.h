#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/storage/storage_files.h"

namespace granary
{

/// What a part's data lives in and how to read it: column views over owned columns (in-memory
/// databases) or over memory-mapped files, plus the granule bounds of each sort-key column.
struct PartContents
{
    size_t rows = 0;
    std::vector<ColumnView> columns;
    std::vector<size_t> column_bytes;
    std::vector<Column> granule_min;  ///< One column per sort-key column.
    std::vector<Column> granule_max;
    std::vector<Column> owned_columns;
    std::vector<MappedFile> mapped_files;
    /// Per column, run once on first use (throwing kCorruptedData to refuse the column);
    /// empty when nothing needs checking.
    std::vector<std::function<void(const PartContents&)>> first_use_checks;
};

/// Rows of one table, sorted by its sort key, split into granules of kGranuleRows. Immutable
/// once published, so queries read it without locks.
class Part
{
public:
    static constexpr size_t kGranuleRows = 8192;

    explicit Part(PartContents contents);

    size_t rows() const { return contents_.rows; }
    /// Unique in the process: caches key on it (a part's memory may be reused by another).
    uint64_t id() const { return id_; }
    size_t granules() const { return (rows() + kGranuleRows - 1) / kGranuleRows; }
    size_t columnCount() const { return contents_.columns.size(); }

    /// The whole part's column (strings: chars + rows + 1 offsets). The first call for a
    /// column of a part read from disk verifies its checksum (kCorruptedData naming the file).
    ColumnView column(size_t column_index) const;
    /// Bytes of that column (for bytes_read).
    size_t columnBytes(size_t column_index) const;
    /// Per-granule minimum / maximum of sort-key column k (k indexes schema.sort_key): one
    /// value per granule, of the column's type, in the order of value_order.h.
    ColumnView granuleMin(size_t sort_key_index) const;
    ColumnView granuleMax(size_t sort_key_index) const;

private:
    PartContents contents_;
    std::unique_ptr<std::once_flag[]> checked_;
    uint64_t id_;
};

}  // namespace granary
