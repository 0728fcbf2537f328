#pragma once

#include <absl/container/flat_hash_map.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>

#include "engine/columns/column.h"

namespace granary
{

/// What a cached chunk holds of its column.
enum class ChunkForm : uint8_t
{
    kValues,  ///< The decoded values.
    kCodes,   ///< A String column's dictionary codes (UInt32; empty when not all coded).
    /// A filter's verdict per entry of a String column's dictionary (UInt8, 1 where it holds),
    /// for chunk 0, keyed by the filter's 64-bit hash as the query condition cache is.
    kVerdicts,
};

/// Identifies one decoded chunk: a run of granules (Part::kChunkGranules of them, from a
/// multiple of that) of one column of one part, in one form.
struct DecodedChunkKey
{
    uint64_t part_id = 0;  ///< Part::id(): unique in the process, never reused.
    uint32_t column = 0;
    uint32_t chunk = 0;
    ChunkForm form = ChunkForm::kValues;
    uint64_t condition = 0;  ///< kVerdicts: the filter's hash.

    bool operator==(const DecodedChunkKey&) const = default;

    template <typename H>
    friend H AbslHashValue(H state, const DecodedChunkKey& key)
    {
        return H::combine(std::move(state), key.part_id, key.column, key.chunk, key.form,
                          key.condition);
    }
};

/// Decoded chunks of compressed columns kept for later scans, least recently used first out,
/// within a byte bound (ClickHouse's uncompressed cache, for Granary's encodings): a hot scan
/// of a compressed part then reads values as a raw part's scan does, without decoding again.
/// Entries are shared: a reader keeps the chunk it holds alive after its eviction. Split into
/// shards, each with its own lock and a share of the bound, so that many scan threads looking
/// up chunks rarely meet on one lock. Thread-safe.
class DecodedChunkCache
{
public:
    /// Lock shards; a chunk larger than a shard's share of the bound is never kept.
    static constexpr size_t kShards = 16;

    explicit DecodedChunkCache(size_t max_bytes);

    /// The chunk, or null when it is not cached.
    std::shared_ptr<const Column> find(const DecodedChunkKey& key);
    /// Keeps `chunk` (evicting the least recently used ones to make room) unless it is larger
    /// than a shard's share of the bound; returns it either way.
    std::shared_ptr<const Column> insert(const DecodedChunkKey& key, Column chunk);

    /// The chunk, or `make()` (a Column) kept as by insert() when it is not cached.
    template <typename Make>
    std::shared_ptr<const Column> findOrInsert(const DecodedChunkKey& key, Make make)
    {
        if (std::shared_ptr<const Column> found = find(key))
        {
            return found;
        }
        return insert(key, make());
    }

    /// Changes the bound, evicting what no longer fits.
    void setMaxBytes(size_t max_bytes);
    size_t maxBytes() const { return max_bytes_.load(std::memory_order_relaxed); }
    /// Bytes of the chunks held now.
    size_t sizeInBytes() const;
    void clear();

    /// A default bound for a machine: a quarter of its memory, at most 8 GiB (ClickHouse's
    /// uncompressed_cache_size). With the compressed parts (a third of the raw size) it then
    /// holds a hot working set in less memory than the raw parts would take; an eighth left
    /// LIKE scans of URL and Title on 10M rows decoding on every run (5.5x raw).
    static size_t defaultMaxBytes();
    /// The shard holding a key's entry (tests fill one shard to see the eviction order).
    static size_t shardIndex(const DecodedChunkKey& key);

private:
    struct Entry
    {
        DecodedChunkKey key;
        std::shared_ptr<const Column> chunk;
        size_t bytes = 0;
    };
    using Recency = std::list<Entry>;  ///< Most recently used first.

    struct Shard
    {
        mutable std::mutex mutex;
        Recency recency;
        absl::flat_hash_map<DecodedChunkKey, Recency::iterator> index;
        size_t bytes = 0;
    };

    Shard& shardOf(const DecodedChunkKey& key) { return shards_[shardIndex(key)]; }
    size_t shardMaxBytes() const { return maxBytes() / kShards; }
    /// Evicts the shard's least recently used entries until it holds at most `max_bytes`.
    static void shrinkLocked(Shard& shard, size_t max_bytes);

    std::atomic<size_t> max_bytes_;
    std::array<Shard, kShards> shards_;
};

}  // namespace granary
