#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "hashtables/hash_table.h"

namespace granary
{

/// Two-level hash table: 256 independent sub-tables (buckets) chosen by the top 8 bits of the
/// hash, which the sub-tables' slot index (the low bits) never uses. Buckets grow on their own,
/// so a resize moves 1/256 of the data, and different partial tables put a key in the same
/// bucket: merging and finalizing can run as 256 independent tasks.
template <typename SubTable>
class TwoLevelHashTable
{
public:
    using Cell = typename SubTable::Cell;
    using Key = typename SubTable::Key;
    using Hash = typename SubTable::Hash;

    /// 8 bucket bits give 256 buckets: enough tasks to spread a merge over hundreds of threads.
    static constexpr size_t kBucketBits = 8;
    static constexpr size_t kBucketCount = size_t{1} << kBucketBits;
    /// The bucket comes from the top bits; sub-tables index with the low bits.
    static constexpr size_t kBucketShift = 64 - kBucketBits;

    static size_t bucketOf(uint64_t hash) { return hash >> kBucketShift; }

    TwoLevelHashTable() = default;

    /// Conversion from a single-level table: every element moves to the bucket of its hash.
    /// The source keeps its contents; callers usually drop it right after.
    /// Each bucket is sized for its share first (one counting pass over the source), so no
    /// bucket grows step by step from its initial size while the elements move in.
    template <typename SingleLevel>
    explicit TwoLevelHashTable(const SingleLevel& source)
    {
        const std::array<size_t, kBucketCount> counts = bucketCounts(source);
        for (size_t bucket = 0; bucket < kBucketCount; ++bucket)
        {
            if (counts[bucket] > 0)
            {
                buckets_[bucket].reserve(counts[bucket]);
            }
        }
        source.forEachCell([&](const Cell& cell) { insertDistinct(cell); });
    }

    /// How many of a single-level table's elements fall into each bucket: what a conversion
    /// needs to size each bucket's storage once.
    template <typename SingleLevel>
    static std::array<size_t, kBucketCount> bucketCounts(const SingleLevel& source)
    {
        std::array<size_t, kBucketCount> counts{};
        source.forEachCell([&](const Cell& cell) { ++counts[bucketOf(source.cellHash(cell))]; });
        return counts;
    }

    uint64_t hash(const Key& key) const { return buckets_[0].hash(key); }
    uint64_t cellHash(const Cell& cell) const { return buckets_[0].cellHash(cell); }

    Cell* emplace(const Key& key, uint64_t hash, bool& inserted)
    {
        return buckets_[bucketOf(hash)].emplace(key, hash, inserted);
    }
    Cell* emplace(const Key& key, bool& inserted) { return emplace(key, hash(key), inserted); }

    Cell* find(const Key& key, uint64_t hash) { return buckets_[bucketOf(hash)].find(key, hash); }
    Cell* find(const Key& key) { return find(key, hash(key)); }
    const Cell* find(const Key& key) const
    {
        return const_cast<TwoLevelHashTable*>(this)->find(key);
    }
    bool contains(const Key& key) const { return find(key) != nullptr; }

    void prefetch(uint64_t hash) const { buckets_[bucketOf(hash)].prefetch(hash); }

    /// Inserts a cell whose key is known to be absent (conversion, scatter): copies the whole
    /// cell, mapped value included.
    void insertDistinct(const Cell& cell)
    {
        const uint64_t hash = cellHash(cell);
        bool inserted;
        *buckets_[bucketOf(hash)].emplace(cell.key(), hash, inserted) = cell;
    }

    SubTable& bucket(size_t index) { return buckets_[index]; }
    const SubTable& bucket(size_t index) const { return buckets_[index]; }

    template <typename F>
    void forEachCell(F&& f)
    {
        for (SubTable& bucket : buckets_)
        {
            bucket.forEachCell(f);
        }
    }
    template <typename F>
    void forEachCell(F&& f) const
    {
        for (const SubTable& bucket : buckets_)
        {
            bucket.forEachCell(f);
        }
    }

    size_t size() const
    {
        size_t total = 0;
        for (const SubTable& bucket : buckets_)
        {
            total += bucket.size();
        }
        return total;
    }
    bool empty() const { return size() == 0; }

    size_t bufferBytes() const
    {
        size_t total = 0;
        for (const SubTable& bucket : buckets_)
        {
            total += bucket.bufferBytes();
        }
        return total;
    }
    /// Times the buckets' cell arrays were reallocated (growth or reservation).
    size_t growCount() const
    {
        size_t total = 0;
        for (const SubTable& bucket : buckets_)
        {
            total += bucket.growCount();
        }
        return total;
    }

private:
    std::array<SubTable, kBucketCount> buckets_;
};

}  // namespace granary
