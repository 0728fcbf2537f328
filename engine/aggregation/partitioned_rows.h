#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/bucket_scatter.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// One worker's rows of a high-cardinality GROUP BY, routed by key hash to the bucket whose
/// table will aggregate them instead of into the worker's own table. Once a worker's table has
/// outgrown the caches, each row it aggregates is a cache miss and every worker's table holds
/// most of the keys again; routed rows are aggregated later by one task per bucket, into a
/// table a 256th of the size, with no merge of partial tables (docs/aggregation.md).
///
/// A bucket holds chunks of rows, the columns the aggregation reads side by side (fixed-width
/// values, or string bytes with offsets); chunks start small and double up to kMaxChunkRows,
/// so neither a few rows per bucket nor millions waste memory, and a full chunk is never
/// copied. Memory is charged to the query.
class PartitionedRows
{
public:
    /// Rows of the largest chunk: 16K rows of a few columns stay within the L2 cache while a
    /// bucket task aggregates them.
    static constexpr size_t kMaxChunkRows = 16384;
    /// Rows of a bucket's first chunk.
    static constexpr size_t kFirstChunkRows = 256;

    /// `layout`: the types of the morsels' columns; `used[c]`: whether column c is read by
    /// the aggregation (the others are not copied, and their views have no data).
    PartitionedRows(const std::vector<ColumnView>& layout, std::vector<bool> used);

    /// Appends rows [0, count) of `columns`, row i to buckets[i].
    void append(const std::vector<ColumnView>& columns, size_t count, const uint8_t* buckets);

    size_t rows() const { return rows_; }
    /// The rows routed to `bucket`.
    size_t rows(size_t bucket) const;
    size_t chunks(size_t bucket) const { return chunks_in_use_[bucket]; }
    /// The rows of one chunk of `bucket` as column views in the layout's order.
    std::vector<ColumnView> chunk(size_t bucket, size_t index, size_t& rows) const;
    /// Frees the chunks of `bucket` once its task has aggregated them, so the buffers shrink
    /// while the result's tables grow.
    void release(size_t bucket);
    /// Forgets every bucket's rows but keeps their chunks, which the next rows fill again
    /// while their memory is mapped and likely cached.
    void clear();
    /// Bytes held (capacity) across buckets.
    size_t memoryBytes() const;

private:
    using Bytes = std::vector<char, TrackedAllocator<char>>;
    using Offsets = std::vector<uint64_t, TrackedAllocator<uint64_t>>;

    struct ChunkColumn
    {
        Bytes bytes;      ///< Fixed-width values, or string bytes.
        Offsets offsets;  ///< Strings only: rows + 1 boundaries into `bytes`.
    };
    struct Chunk
    {
        size_t rows = 0;
        size_t capacity = 0;
        std::vector<ChunkColumn> columns;  ///< One per layout column; unused ones stay empty.
    };

    /// The chunk of `bucket` that takes `rows` more rows: the last one in use, else the next
    /// kept one (emptied, or replaced where too small), else a new one.
    Chunk& chunkWithRoom(size_t bucket, size_t rows);
    /// Empties `chunk` for reuse, keeping its capacity.
    void empty(Chunk& chunk) const;

    std::vector<TypeId> types_;
    std::vector<bool> used_;
    /// Each bucket's chunks: those in use first, then kept ones (clear) that take rows next.
    std::array<std::vector<Chunk>, kPartitionBuckets> buckets_;
    std::array<size_t, kPartitionBuckets> chunks_in_use_{};
    size_t rows_ = 0;
};

}  // namespace granary
