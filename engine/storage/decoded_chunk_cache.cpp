#include "engine/storage/decoded_chunk_cache.h"

#include <unistd.h>

#include <algorithm>

#include "engine/observe/profile_events.h"

namespace granary
{

DecodedChunkCache::DecodedChunkCache(size_t max_bytes) : max_bytes_(max_bytes) {}

size_t DecodedChunkCache::defaultMaxBytes()
{
    constexpr size_t kMostBytes = size_t{8} << 30;
    /// The bound is physical memory divided by this (decoded_chunk_cache.h says why).
    constexpr size_t kMemoryDivisor = 4;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_bytes = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_bytes <= 0)
    {
        return size_t{1} << 30;
    }
    return std::min(kMostBytes, size_t(pages) * size_t(page_bytes) / kMemoryDivisor);
}

size_t DecodedChunkCache::shardIndex(const DecodedChunkKey& key)
{
    return absl::Hash<DecodedChunkKey>{}(key) % kShards;
}

std::shared_ptr<const Column> DecodedChunkCache::find(const DecodedChunkKey& key)
{
    Shard& shard = shardOf(key);
    std::lock_guard lock(shard.mutex);
    const auto found = shard.index.find(key);
    if (found == shard.index.end())
    {
        ProfileEvents::increment(ProfileEvent::DecodedCacheMisses);
        return nullptr;
    }
    shard.recency.splice(shard.recency.begin(), shard.recency, found->second);
    ProfileEvents::increment(ProfileEvent::DecodedCacheHits);
    return found->second->chunk;
}

std::shared_ptr<const Column> DecodedChunkCache::insert(const DecodedChunkKey& key, Column chunk)
{
    auto shared = std::make_shared<const Column>(std::move(chunk));
    const size_t bytes = shared->allocatedBytes() + sizeof(Entry);
    const size_t max_bytes = shardMaxBytes();
    if (bytes > max_bytes)
    {
        return shared;
    }
    Shard& shard = shardOf(key);
    std::lock_guard lock(shard.mutex);
    if (const auto found = shard.index.find(key); found != shard.index.end())
    {
        // Another reader decoded the same chunk meanwhile: keep theirs, the values are equal.
        return found->second->chunk;
    }
    shrinkLocked(shard, max_bytes - bytes);
    shard.recency.push_front(Entry{key, shared, bytes});
    shard.index.emplace(key, shard.recency.begin());
    shard.bytes += bytes;
    return shared;
}

void DecodedChunkCache::shrinkLocked(Shard& shard, size_t max_bytes)
{
    while (shard.bytes > max_bytes)
    {
        const Entry& oldest = shard.recency.back();
        shard.bytes -= oldest.bytes;
        shard.index.erase(oldest.key);
        shard.recency.pop_back();
        ProfileEvents::increment(ProfileEvent::DecodedCacheEvictions);
    }
}

void DecodedChunkCache::setMaxBytes(size_t max_bytes)
{
    max_bytes_.store(max_bytes, std::memory_order_relaxed);
    for (Shard& shard : shards_)
    {
        std::lock_guard lock(shard.mutex);
        shrinkLocked(shard, shardMaxBytes());
    }
}

size_t DecodedChunkCache::sizeInBytes() const
{
    size_t bytes = 0;
    for (const Shard& shard : shards_)
    {
        std::lock_guard lock(shard.mutex);
        bytes += shard.bytes;
    }
    return bytes;
}

void DecodedChunkCache::clear()
{
    for (Shard& shard : shards_)
    {
        std::lock_guard lock(shard.mutex);
        shard.index.clear();
        shard.recency.clear();
        shard.bytes = 0;
    }
}

}  // namespace granary
