#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/storage/decoded_chunk_cache.h"
#include "engine/storage/encoded_column.h"
#include "engine/storage/storage_files.h"

namespace granary
{

/// What a part's data lives in and how to read it: column views over owned columns (in-memory
/// databases) or over memory-mapped raw files, or encoded columns over memory-mapped files,
/// plus the granule bounds of each sort-key column.
struct PartContents
{
    size_t rows = 0;
    std::vector<ColumnView> columns;  ///< Views without data for encoded columns.
    /// Per column, its encoded form; null for a column held as values.
    std::vector<std::unique_ptr<const EncodedColumn>> encoded;
    std::vector<size_t> column_bytes;
    /// Per column, its validity bitmap (rows bits); null without NULLs. Raw views carry it too.
    std::vector<const uint8_t*> validity;
    std::vector<Column> granule_min;  ///< One column per sort-key column.
    std::vector<Column> granule_max;
    std::vector<Column> owned_columns;
    /// The children of nested columns' views over mapped files.
    std::vector<std::unique_ptr<ColumnView[]>> child_views;
    std::vector<MappedFile> mapped_files;
    /// Per column, run once on first use (throwing kCorruptedData to refuse the column);
    /// empty when nothing needs checking.
    std::vector<std::function<void(const PartContents&)>> first_use_checks;
};

/// Where reads of a column through the decoded-chunk cache leave their values: decoded into
/// `decoded` (reused between reads), or in a cached chunk that `pinned` keeps alive while the
/// view is read.
struct ColumnReadBuffer
{
    explicit ColumnReadBuffer(const DataType& type) : decoded(type) {}

    Column decoded;
    std::shared_ptr<const Column> pinned;
    /// Bytes the last read added to the cache (0 when it found or kept nothing).
    size_t added_bytes = 0;
};

/// Rows of one table, sorted by its sort key, split into granules of kGranuleRows. Immutable
/// once published, so queries read it without locks.
class Part
{
public:
    static constexpr size_t kGranuleRows = 8192;
    /// Granules decoded and cached together: reads within one chunk (a scan's morsels are
    /// chunks or parts of one) are served from it.
    static constexpr size_t kChunkGranules = 8;
    /// Rows per chunk: kChunkGranules granules, from a multiple of them.
    static constexpr size_t kChunkRows = kChunkGranules * kGranuleRows;

    explicit Part(PartContents contents);

    size_t rows() const { return contents_.rows; }
    /// Unique in the process: caches key on it (a part's memory may be reused by another).
    uint64_t id() const { return id_; }
    size_t granules() const { return (rows() + kGranuleRows - 1) / kGranuleRows; }
    size_t columnCount() const { return contents_.columns.size(); }
    TypeId columnType(size_t column_index) const { return contents_.columns.at(column_index).type; }

    /// Rows [first_row, first_row + rows) of a column, first_row a multiple of kGranuleRows:
    /// a view of the part's memory, or of `buffer` (a column of the column's type, replaced)
    /// into which an encoded column is decoded. The first read of a column of a part read
    /// from disk verifies its checksum (kCorruptedData naming the file).
    ColumnView read(size_t column_index, size_t first_row, size_t rows, Column& buffer) const;
    /// The same rows through `cache` (none: read as above): an encoded column's read within
    /// one chunk is a view of the cached chunk; on a miss the chunk is decoded whole and kept
    /// there when `fill`, else the rows are decoded as without the cache.
    ColumnView read(size_t column_index, size_t first_row, size_t rows, ColumnReadBuffer& buffer,
                    DecodedChunkCache* cache, bool fill = true) const;
    /// Appends rows first_row + selected[i] (ascending) of a column to `out`, decoding into
    /// `buffer` only the granules that hold them; returns the bytes of what was read.
    size_t gather(size_t column_index, size_t first_row, std::span<const uint32_t> selected,
                  Column& buffer, Column& out) const;
    /// The same through `cache` when the rows lie in one chunk: from the cached chunk, or on a
    /// miss, with `fill`, from the chunk decoded whole and kept there (a filter that keeps a
    /// few rows of every granule then decodes nothing on the next run); else decoded as
    /// above.
    size_t gather(size_t column_index, size_t first_row, std::span<const uint32_t> selected,
                  ColumnReadBuffer& buffer, Column& out, DecodedChunkCache* cache,
                  bool fill = false) const;
    /// Whether some row of the column is NULL (a validity file or bitmap is there).
    bool hasNulls(size_t column_index) const;
    /// The part's dictionary of an encoded String column; nothing for other columns.
    std::optional<ColumnView> dictionary(size_t column_index) const;
    /// Rows [first_row, first_row + rows) of an encoded String column as codes into its
    /// dictionary (UInt32) when every granule holding them is coded against it; else nothing.
    /// Within one chunk and with `cache`, a view of the chunk's cached codes (on a miss, with
    /// `fill`, decoded and kept there, bytes in buffer.added_bytes), else decoded into
    /// buffer.decoded (a UInt32 column).
    std::optional<ColumnView> readCodes(size_t column_index, size_t first_row, size_t rows,
                                        ColumnReadBuffer& buffer, DecodedChunkCache* cache,
                                        bool fill) const;
    /// Bytes of those rows on disk or in memory (for bytes_read).
    size_t bytesOf(size_t column_index, size_t first_row, size_t rows) const;
    /// Bytes of the whole column.
    size_t columnBytes(size_t column_index) const;
    /// Per-granule minimum / maximum of sort-key column k (k indexes schema.sort_key): one
    /// value per granule, of the column's type, in the order of value_order.h.
    ColumnView granuleMin(size_t sort_key_index) const;
    ColumnView granuleMax(size_t sort_key_index) const;

private:
    void checkOnFirstUse(size_t column_index) const;
    /// Throws kLogicalError unless the rows start at a granule and end within the part.
    void checkReadRange(size_t first_row, size_t rows) const;
    /// Marks the NULL rows among `selected` (rows first_row + selected[i]) in `out`, whose
    /// row first_out_row is the first of them.
    void markNulls(size_t column_index, size_t first_row, std::span<const uint32_t> selected,
                   Column& out, size_t first_out_row) const;
    /// The chunk holding rows [first_row, first_row + rows) when one does and the column is
    /// encoded; else nothing (the read decodes without the cache).
    std::optional<uint32_t> cachedChunkOf(size_t column_index, size_t first_row, size_t rows) const;
    /// Pins in buffer.pinned the chunk holding rows [first_row, first_row + rows) of the
    /// column from `cache` (on a miss, with `fill`, decoded whole and kept there, its bytes in
    /// buffer.added_bytes) and returns the chunk's first row; leaves buffer.pinned null
    /// where the cache does not serve those rows.
    size_t pinChunk(size_t column_index, size_t first_row, size_t rows, ColumnReadBuffer& buffer,
                    DecodedChunkCache* cache, bool fill) const;
    /// The chunk of the column from the cache; when missing, decoded as values of type
    /// `decode` (the column's) and cached, its bytes added to `added_bytes`, or null when
    /// `decode` is.
    std::shared_ptr<const Column> cachedChunk(size_t column_index, uint32_t chunk,
                                              DecodedChunkCache& cache, const DataType* decode,
                                              size_t* added_bytes) const;
    /// The chunk's codes (cachedChunk's kCodes form): empty when some granule of it is not
    /// coded against the dictionary; null when missing and not `fill`.
    std::shared_ptr<const Column> cachedCodes(size_t column_index, uint32_t chunk,
                                              DecodedChunkCache& cache, bool fill,
                                              size_t* added_bytes) const;
    /// Finds `key` in the cache or, with `decode` (granules -> Column), decodes the key's
    /// chunk, keeps it and adds its bytes to `added_bytes`.
    template <typename Decode>
    std::shared_ptr<const Column> findOrDecode(const DecodedChunkKey& key, DecodedChunkCache& cache,
                                               bool decode_missing, size_t* added_bytes,
                                               Decode decode) const;
    /// The column's validity bitmap over the part's rows; null when no row is NULL.
    const uint8_t* validityOf(size_t column_index) const;
    /// Whether the column is stored encoded (reads decode it).
    bool isEncoded(size_t column_index) const;

    PartContents contents_;
    std::unique_ptr<std::once_flag[]> checked_;
    uint64_t id_;
};

}  // namespace granary
