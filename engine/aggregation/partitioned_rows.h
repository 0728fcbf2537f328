#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// Buckets of the two-level tables, and so of partitioned rows: one per value of the hash's
/// top byte.
inline constexpr size_t kPartitionBuckets = 256;

/// One worker's rows of a high-cardinality GROUP BY, routed by key hash to the bucket whose
/// table will aggregate them instead of into the worker's own table. Once a worker's table has
/// outgrown the caches, each row it aggregates is a cache miss and every worker's table holds
/// most of the keys again; routed rows are aggregated later by one task per bucket, into a
/// table a 256th of the size, with no merge of partial tables (docs/aggregation.md).
///
/// Each bucket keeps the morsel's columns side by side (fixed-width values, or string bytes
/// with offsets), growing as rows arrive; its memory is charged to the query.
class PartitionedRows
{
public:
    explicit PartitionedRows(const std::vector<ColumnView>& layout);

    /// Appends rows [0, count) of `columns` (same types as the layout), row i to buckets[i].
    void append(const std::vector<ColumnView>& columns, size_t count, const uint8_t* buckets);

    size_t rows() const { return rows_; }
    size_t rows(size_t bucket) const { return buckets_[bucket].rows; }
    /// The rows of `bucket` as column views in the layout's order (valid until the next append).
    std::vector<ColumnView> columns(size_t bucket) const;
    /// Bytes held (capacity) across buckets.
    size_t memoryBytes() const;

private:
    using Bytes = std::vector<char, TrackedAllocator<char>>;
    using Offsets = std::vector<uint64_t, TrackedAllocator<uint64_t>>;

    struct BucketColumn
    {
        Bytes bytes;      ///< Fixed-width values, or string bytes.
        Offsets offsets;  ///< Strings only: rows + 1 boundaries into `bytes`.
    };
    struct Bucket
    {
        size_t rows = 0;
        std::vector<BucketColumn> columns;
    };

    std::vector<TypeId> types_;
    std::array<Bucket, kPartitionBuckets> buckets_;
    size_t rows_ = 0;
};

}  // namespace granary
