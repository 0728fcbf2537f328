#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <type_traits>
#include <unordered_map>

#include "engine/exec/reader_scalable_shared_mutex.h"

namespace granary
{

/// Identifies what an entry describes: one version of one part, filtered by one condition.
/// A part that changes gets a new version, so entries of the old data are never consulted.
struct QueryConditionCacheKey
{
    uint64_t table_id = 0;
    uint64_t part_id = 0;
    uint64_t part_version = 0;
    uint64_t condition_hash = 0;

    bool operator==(const QueryConditionCacheKey&) const = default;
};

/// Granules [begin, end) of a part.
struct GranuleRange
{
    size_t begin = 0;
    size_t end = 0;
};

/// One bit per mark of a part: set while the mark's granule may hold rows matching the
/// condition, cleared once a scan found none there. The last bit stands for the part's final
/// mark, which closes the part and holds no rows. Bits only ever go from set to clear, so a
/// reader that sees a stale set bit merely reads a granule it could have skipped.
class QueryConditionCacheEntry
{
public:
    static constexpr size_t kBitsPerWord = 64;

    explicit QueryConditionCacheEntry(size_t granule_count);

    size_t granuleCount() const { return granule_count_; }

    bool mayMatch(size_t granule) const
    {
        return (words_[granule / kBitsPerWord].load(std::memory_order_relaxed) >>
                (granule % kBitsPerWord)) &
               1;
    }
    bool finalMarkMayMatch() const { return mayMatch(granule_count_); }

    /// True when some granule of `ranges` (or the final mark) is still marked "may match".
    bool wouldChange(std::span<const GranuleRange> ranges, bool has_final_mark) const;
    /// Marks `ranges` (and the final mark) as not matching with atomic AND, touching only words
    /// that change; safe against concurrent readers and writers. Returns whether anything changed.
    bool markNoMatch(std::span<const GranuleRange> ranges, bool has_final_mark);

    /// Heap bytes held by the entry: the object and its bitmap.
    size_t memoryBytes() const;

private:
    size_t granule_count_;
    size_t word_count_;
    std::unique_ptr<std::atomic<uint64_t>[]> words_;
};

/// How a write that marks granules as not matching synchronises with other threads.
enum class ConditionCacheUpdate
{
    /// Every read and write under one exclusive mutex (the original design).
    kExclusiveLock,
    /// Readers share a reader-scalable lock; a writer checks under the shared lock whether
    /// anything would change, and only then locks exclusively and checks again before writing.
    kDoubleChecked,
    /// Like kDoubleChecked, but bits of an existing entry are cleared with atomic AND under the
    /// shared lock: only creating or evicting an entry takes the exclusive lock.
    kAtomic,
};

/// Remembers, per (table, part version, filter condition), which granules held no matching rows,
/// so a later query with the same filter skips them. Bounded in bytes; evicts with the CLOCK
/// approximation of LRU (a referenced flag set by readers, cleared by the sweeping hand), which
/// lets readers record use under a shared lock.
template <ConditionCacheUpdate Update>
class BasicQueryConditionCache
{
public:
    explicit BasicQueryConditionCache(size_t max_bytes);
    ~BasicQueryConditionCache();

    BasicQueryConditionCache(const BasicQueryConditionCache&) = delete;
    BasicQueryConditionCache& operator=(const BasicQueryConditionCache&) = delete;

    /// The entry for `key`, or null. The entry stays valid while held, even if evicted.
    std::shared_ptr<const QueryConditionCacheEntry> read(const QueryConditionCacheKey& key);

    /// Records that the filter matched no row in `ranges_with_no_match` of a part of
    /// `granule_count` granules; `has_final_mark` when the scan reached the part's final mark.
    /// A write whose granule count differs from the existing entry's is stale and ignored.
    void write(const QueryConditionCacheKey& key, size_t granule_count,
               std::span<const GranuleRange> ranges_with_no_match, bool has_final_mark);

    /// Drops every entry of the part, whatever its version or condition.
    void invalidatePart(uint64_t table_id, uint64_t part_id);

    size_t maxBytes() const { return max_bytes_; }
    /// Bytes accounted to the cached entries; never above maxBytes().
    size_t sizeInBytes() const;
    size_t entryCount() const;

private:
    struct KeyHash
    {
        size_t operator()(const QueryConditionCacheKey& key) const;
    };
    struct Slot
    {
        QueryConditionCacheKey key;
        std::shared_ptr<QueryConditionCacheEntry> entry;
        size_t bytes = 0;
        std::atomic<bool> referenced{false};
    };
    using Ring = std::list<Slot>;

    /// Looks `key` up and marks it referenced; the caller holds the lock, shared or exclusive.
    Slot* findLocked(const QueryConditionCacheKey& key) const;
    /// Finds or creates the entry; null when the write is stale or the entry cannot fit.
    QueryConditionCacheEntry* findOrCreateLocked(const QueryConditionCacheKey& key,
                                                 size_t granule_count);
    /// Clears bits under the shared lock; false when the entry is missing and must be created.
    bool writeShared(const QueryConditionCacheKey& key, size_t granule_count,
                     std::span<const GranuleRange> ranges, bool has_final_mark);
    void writeExclusive(const QueryConditionCacheKey& key, size_t granule_count,
                        std::span<const GranuleRange> ranges, bool has_final_mark);
    void evictOneLocked();
    void eraseLocked(typename Ring::iterator slot);

    using Mutex = std::conditional_t<Update == ConditionCacheUpdate::kExclusiveLock, std::mutex,
                                     ReaderScalableSharedMutex>;
    /// A lock for looking entries up: exclusive for kExclusiveLock, shared otherwise.
    auto readLock() const
    {
        if constexpr (Update == ConditionCacheUpdate::kExclusiveLock)
        {
            return std::unique_lock(mutex_);
        }
        else
        {
            return std::shared_lock(mutex_);
        }
    }

    const size_t max_bytes_;
    mutable Mutex mutex_;
    /// Entries in CLOCK order; new entries go just behind the hand, so they are swept last.
    Ring ring_;
    typename Ring::iterator hand_;
    std::unordered_map<QueryConditionCacheKey, typename Ring::iterator, KeyHash> index_;
    size_t bytes_ = 0;
};

/// Atomic updates: fastest in bench/contention (BM_ConditionCache), and as exact as the others.
using QueryConditionCache = BasicQueryConditionCache<ConditionCacheUpdate::kAtomic>;

}  // namespace granary
