#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/bucket_cardinality.h"

namespace granary
{

/// Cells kept in the two-level bucket of their hash (the hash's top byte) instead of being
/// inserted into that bucket's table, with a sketch of each bucket's distinct keys. Where a
/// merge will insert every cell into another table's buckets anyway, building this table's
/// 256 buckets first is work (and fresh memory) the merge throws away: the merge task of a
/// bucket inserts the bucket's cells of every source into a target table sized once from the
/// sketches (docs/aggregation.md). Used by count(DISTINCT) sets and GROUP BY partials.
template <typename Cell>
class RoutedCells
{
public:
    static constexpr size_t kBuckets = BucketCardinality::kBuckets;

    /// Keeps `cell`, whose key hashes to `hash`.
    void add(const Cell& cell, uint64_t hash)
    {
        buckets_[hash >> BucketCardinality::kBucketShift].push_back(cell);
        distinct_.add(hash);
        ++count_;
    }

    /// Keeps every cell of the single-level `table`; `counts` are its cells per bucket
    /// (TwoLevelHashTable::bucketCounts), so that each bucket's vector is allocated once.
    template <typename Table>
    void addAll(const Table& table, const std::array<size_t, kBuckets>& counts)
    {
        for (size_t bucket = 0; bucket < kBuckets; ++bucket)
        {
            buckets_[bucket].reserve(buckets_[bucket].size() + counts[bucket]);
        }
        table.forEachCell([&](const Cell& cell) { add(cell, table.cellHash(cell)); });
    }

    size_t count() const { return count_; }

    /// Sizes `table`, bucket `bucket` of a two-level table, for the larger of what it holds
    /// and the estimated distinct keys of that bucket's cells in `sources` (nulls skipped),
    /// then hands insert(cells) each source's cells of the bucket in turn and frees them.
    /// Only that bucket is touched: buckets may run in parallel.
    template <typename Table, typename Insert>
    static void insertBucket(Table& table, size_t bucket, std::span<RoutedCells* const> sources,
                             Insert&& insert)
    {
        std::vector<const BucketCardinality*> sketches;
        for (const RoutedCells* source : sources)
        {
            if (source != nullptr)
            {
                sketches.push_back(&source->distinct_);
            }
        }
        BucketCardinality::reserve(table, bucket, sketches);
        for (RoutedCells* source : sources)
        {
            if (source != nullptr)
            {
                Bucket& cells = source->buckets_[bucket];
                insert(std::span<const Cell>(cells.data(), cells.size()));
                Bucket().swap(cells);
            }
        }
    }

private:
    using Bucket = std::vector<Cell, TrackedAllocator<Cell>>;

    std::array<Bucket, kBuckets> buckets_;
    BucketCardinality distinct_;
    size_t count_ = 0;
};

/// The RoutedCells of a two-level table's cells where its owner routes them; a placeholder
/// where it never does (string keys), so that the owner can still declare the member.
template <typename TwoLevel, bool Routes>
struct RoutedCellsForTable
{
    using type = RoutedCells<typename TwoLevel::Cell>;
};
template <typename TwoLevel>
struct RoutedCellsForTable<TwoLevel, false>
{
    using type = RoutedCells<char>;
};
template <typename TwoLevel, bool Routes>
using RoutedCellsFor = typename RoutedCellsForTable<TwoLevel, Routes>::type;

/// A bucket's routed cells read as a table by mergeTables: `hashing` is any table of the same
/// hash (cells that do not save their hash are hashed again).
template <typename Cell, typename HashingTable>
struct RoutedCellsView
{
    std::span<const Cell> cells;
    const HashingTable& hashing;

    size_t size() const { return cells.size(); }
    uint64_t cellHash(const Cell& cell) const { return hashing.cellHash(cell); }
    template <typename F>
    void forEachCell(F&& f) const
    {
        for (const Cell& cell : cells)
        {
            f(cell);
        }
    }
};

}  // namespace granary
