#include "engine/exec/query_condition_cache.h"

#include <algorithm>
#include <mutex>

#include "engine/observe/profile_events.h"
#include "hashtables/hash.h"

namespace granary
{
namespace
{

constexpr size_t kBitsPerWord = QueryConditionCacheEntry::kBitsPerWord;

/// Calls on_word(word_index, mask) for each bitmap word that `range` touches, until it returns
/// true; returns whether it did.
template <typename OnWord>
bool anyWordMask(GranuleRange range, OnWord&& on_word)
{
    size_t begin = range.begin;
    while (begin < range.end)
    {
        const size_t bit = begin % kBitsPerWord;
        const size_t bits = std::min(range.end - begin, kBitsPerWord - bit);
        const uint64_t low_bits = bits == kBitsPerWord ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
        if (on_word(begin / kBitsPerWord, low_bits << bit))
        {
            return true;
        }
        begin += bits;
    }
    return false;
}

/// Calls on_range for each range clamped to the part's granules, then for the final mark.
template <typename OnRange>
bool anyRange(std::span<const GranuleRange> ranges, bool has_final_mark, size_t granule_count,
              OnRange&& on_range)
{
    for (const GranuleRange& range : ranges)
    {
        const GranuleRange clamped{range.begin, std::min(range.end, granule_count)};
        if (clamped.begin < clamped.end && on_range(clamped))
        {
            return true;
        }
    }
    return has_final_mark && on_range(GranuleRange{granule_count, granule_count + 1});
}

template <typename Slot>
std::shared_ptr<const QueryConditionCacheEntry> sharedEntry(const Slot* slot)
{
    return slot != nullptr ? slot->entry : nullptr;
}

}  // namespace

QueryConditionCacheEntry::QueryConditionCacheEntry(size_t granule_count)
    : granule_count_(granule_count),
      // One bit more than granules: the final mark.
      word_count_(granule_count / kBitsPerWord + 1),
      words_(std::make_unique<std::atomic<uint64_t>[]>(word_count_))
{
    for (size_t i = 0; i < word_count_; ++i)
    {
        words_[i].store(~uint64_t{0}, std::memory_order_relaxed);
    }
}

bool QueryConditionCacheEntry::wouldChange(std::span<const GranuleRange> ranges,
                                           bool has_final_mark) const
{
    return anyRange(ranges, has_final_mark, granule_count_,
                    [&](GranuleRange range)
                    {
                        return anyWordMask(
                            range, [&](size_t word, uint64_t mask)
                            { return (words_[word].load(std::memory_order_relaxed) & mask) != 0; });
                    });
}

bool QueryConditionCacheEntry::markNoMatch(std::span<const GranuleRange> ranges,
                                           bool has_final_mark)
{
    bool changed = false;
    anyRange(ranges, has_final_mark, granule_count_,
             [&](GranuleRange range)
             {
                 return anyWordMask(
                     range,
                     [&](size_t word, uint64_t mask)
                     {
                         // Reading first keeps the cache line shared when the bits are already
                         // clear.
                         if ((words_[word].load(std::memory_order_relaxed) & mask) != 0)
                         {
                             words_[word].fetch_and(~mask, std::memory_order_relaxed);
                             changed = true;
                         }
                         return false;
                     });
             });
    return changed;
}

size_t QueryConditionCacheEntry::memoryBytes() const
{
    return sizeof(*this) + word_count_ * sizeof(uint64_t);
}

template <ConditionCacheUpdate Update>
size_t BasicQueryConditionCache<Update>::KeyHash::operator()(
    const QueryConditionCacheKey& key) const
{
    return hashing::hashWords(hashing::hashWords(key.table_id, key.part_id),
                              hashing::hashWords(key.part_version, key.condition_hash));
}

template <ConditionCacheUpdate Update>
BasicQueryConditionCache<Update>::BasicQueryConditionCache(size_t max_bytes)
    : max_bytes_(max_bytes), hand_(ring_.end())
{
}

template <ConditionCacheUpdate Update>
BasicQueryConditionCache<Update>::~BasicQueryConditionCache() = default;

template <ConditionCacheUpdate Update>
std::shared_ptr<const QueryConditionCacheEntry> BasicQueryConditionCache<Update>::read(
    const QueryConditionCacheKey& key)
{
    std::shared_ptr<const QueryConditionCacheEntry> entry;
    {
        auto lock = readLock();
        entry = sharedEntry(findLocked(key));
    }
    ProfileEvents::increment(entry ? ProfileEvent::ConditionCacheHits
                                   : ProfileEvent::ConditionCacheMisses);
    return entry;
}

template <ConditionCacheUpdate Update>
void BasicQueryConditionCache<Update>::write(const QueryConditionCacheKey& key,
                                             size_t granule_count,
                                             std::span<const GranuleRange> ranges_with_no_match,
                                             bool has_final_mark)
{
    if constexpr (Update != ConditionCacheUpdate::kExclusiveLock)
    {
        if (writeShared(key, granule_count, ranges_with_no_match, has_final_mark))
        {
            return;
        }
    }
    writeExclusive(key, granule_count, ranges_with_no_match, has_final_mark);
}

template <ConditionCacheUpdate Update>
bool BasicQueryConditionCache<Update>::writeShared(const QueryConditionCacheKey& key,
                                                   size_t granule_count,
                                                   std::span<const GranuleRange> ranges,
                                                   bool has_final_mark)
{
    auto lock = readLock();
    Slot* slot = findLocked(key);
    if (slot == nullptr)
    {
        return false;
    }
    QueryConditionCacheEntry* entry = slot->entry.get();
    if (entry->granuleCount() != granule_count)
    {
        return true;
    }
    if constexpr (Update == ConditionCacheUpdate::kAtomic)
    {
        if (entry->markNoMatch(ranges, has_final_mark))
        {
            ProfileEvents::increment(ProfileEvent::ConditionCacheUpdates);
        }
        return true;
    }
    return !entry->wouldChange(ranges, has_final_mark);
}

template <ConditionCacheUpdate Update>
void BasicQueryConditionCache<Update>::writeExclusive(const QueryConditionCacheKey& key,
                                                      size_t granule_count,
                                                      std::span<const GranuleRange> ranges,
                                                      bool has_final_mark)
{
    std::unique_lock lock(mutex_);
    QueryConditionCacheEntry* entry = findOrCreateLocked(key, granule_count);
    if (entry != nullptr && entry->markNoMatch(ranges, has_final_mark))
    {
        ProfileEvents::increment(ProfileEvent::ConditionCacheUpdates);
    }
}

template <ConditionCacheUpdate Update>
typename BasicQueryConditionCache<Update>::Slot* BasicQueryConditionCache<Update>::findLocked(
    const QueryConditionCacheKey& key) const
{
    auto found = index_.find(key);
    if (found == index_.end())
    {
        return nullptr;
    }
    Slot& slot = *found->second;
    // Writing only when the flag is clear keeps a hot entry's line shared between readers.
    if (!slot.referenced.load(std::memory_order_relaxed))
    {
        slot.referenced.store(true, std::memory_order_relaxed);
    }
    return &slot;
}

template <ConditionCacheUpdate Update>
QueryConditionCacheEntry* BasicQueryConditionCache<Update>::findOrCreateLocked(
    const QueryConditionCacheKey& key, size_t granule_count)
{
    if (auto found = index_.find(key); found != index_.end())
    {
        QueryConditionCacheEntry* entry = found->second->entry.get();
        return entry->granuleCount() == granule_count ? entry : nullptr;
    }
    auto entry = std::make_shared<QueryConditionCacheEntry>(granule_count);
    // Memory beside the entry: the list node (slot, two links), the hash node (key, iterator,
    // next link, cached hash) and the shared_ptr control block (vtable, two counts).
    const size_t bookkeeping_bytes =
        sizeof(Slot) + 2 * sizeof(void*) + sizeof(QueryConditionCacheKey) + 6 * sizeof(void*);
    const size_t bytes = entry->memoryBytes() + bookkeeping_bytes;
    if (bytes > max_bytes_)
    {
        return nullptr;
    }
    while (bytes_ + bytes > max_bytes_)
    {
        evictOneLocked();
    }
    auto slot = ring_.emplace(hand_);
    slot->key = key;
    slot->entry = std::move(entry);
    slot->bytes = bytes;
    index_.emplace(key, slot);
    bytes_ += bytes;
    return slot->entry.get();
}

template <ConditionCacheUpdate Update>
void BasicQueryConditionCache<Update>::evictOneLocked()
{
    // Each pass clears referenced flags, so the hand finds a victim within two turns.
    while (true)
    {
        if (hand_ == ring_.end())
        {
            hand_ = ring_.begin();
        }
        if (!hand_->referenced.exchange(false, std::memory_order_relaxed))
        {
            eraseLocked(hand_);
            ProfileEvents::increment(ProfileEvent::ConditionCacheEvictions);
            return;
        }
        ++hand_;
    }
}

template <ConditionCacheUpdate Update>
void BasicQueryConditionCache<Update>::eraseLocked(typename Ring::iterator slot)
{
    bytes_ -= slot->bytes;
    index_.erase(slot->key);
    if (slot == hand_)
    {
        hand_ = ring_.erase(slot);
    }
    else
    {
        ring_.erase(slot);
    }
}

template <ConditionCacheUpdate Update>
void BasicQueryConditionCache<Update>::invalidatePart(uint64_t table_id, uint64_t part_id)
{
    std::unique_lock lock(mutex_);
    for (auto slot = ring_.begin(); slot != ring_.end();)
    {
        auto next = std::next(slot);
        if (slot->key.table_id == table_id && slot->key.part_id == part_id)
        {
            eraseLocked(slot);
        }
        slot = next;
    }
}

template <ConditionCacheUpdate Update>
size_t BasicQueryConditionCache<Update>::sizeInBytes() const
{
    auto lock = readLock();
    return bytes_;
}

template <ConditionCacheUpdate Update>
size_t BasicQueryConditionCache<Update>::entryCount() const
{
    auto lock = readLock();
    return index_.size();
}

template class BasicQueryConditionCache<ConditionCacheUpdate::kExclusiveLock>;
template class BasicQueryConditionCache<ConditionCacheUpdate::kDoubleChecked>;
template class BasicQueryConditionCache<ConditionCacheUpdate::kAtomic>;

}  // namespace granary
