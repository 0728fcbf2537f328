#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

/// Every profile event, as M(Name, "one-line description"). Events are added here and nowhere
/// else: the enum, the names and the descriptions are all generated from this list.
#define GRANARY_PROFILE_EVENTS(M)                                                              \
    M(RowsRead, "Rows read from columns by scans")                                             \
    M(GranulesRead, "Granules a scan read and filtered")                                       \
    M(GranulesSkipped, "Granules a scan skipped unread (condition cache, indexes)")            \
    M(BytesRead, "Uncompressed bytes of column data read by scans")                            \
    M(HashTableResizes, "GROUP BY hash-table cell arrays reallocated to grow or to reserve")   \
    M(TwoLevelConversions, "Single-level aggregation tables converted to two-level")           \
    M(MergeTasks, "Tasks run to merge partial aggregation states")                             \
    M(ArenaBytes, "Bytes obtained by arenas for keys and aggregate states")                    \
    M(ConditionCacheHits, "Query condition cache lookups that found an entry")                 \
    M(ConditionCacheMisses, "Query condition cache lookups that found no entry")               \
    M(ConditionCacheUpdates, "Condition cache writes that marked granules as not matching")    \
    M(ConditionCacheEvictions, "Condition cache entries evicted to stay under the byte bound") \
    M(DecodedCacheHits, "Decoded chunks of compressed columns a scan found in the cache")      \
    M(DecodedCacheMisses, "Decoded-chunk cache lookups that found nothing (the scan decoded)") \
    M(DecodedCacheEvictions, "Decoded chunks evicted to stay under the cache's byte bound")    \
    M(ProfilerSamples, "Stack samples the query profiler collected")                           \
    M(ProfilerSamplesDropped, "Stack samples lost because a thread's sample buffer was full")

namespace granary
{

enum class ProfileEvent : uint32_t
{
#define GRANARY_PROFILE_EVENT_ENUMERATOR(name, description) name,
    GRANARY_PROFILE_EVENTS(GRANARY_PROFILE_EVENT_ENUMERATOR)
#undef GRANARY_PROFILE_EVENT_ENUMERATOR
};

#define GRANARY_PROFILE_EVENT_ONE(name, description) +1
/// Number of events in GRANARY_PROFILE_EVENTS.
inline constexpr size_t kProfileEventCount = 0 GRANARY_PROFILE_EVENTS(GRANARY_PROFILE_EVENT_ONE);
#undef GRANARY_PROFILE_EVENT_ONE

constexpr size_t profileEventIndex(ProfileEvent event)
{
    return static_cast<size_t>(event);
}

/// The event's name as in the list, e.g. "RowsRead".
std::string_view profileEventName(ProfileEvent event);
/// The event's one-line description.
std::string_view profileEventDescription(ProfileEvent event);

/// One count per event: a query's totals, the process's totals or a difference of two.
struct ProfileEventCounts
{
    std::array<uint64_t, kProfileEventCount> values{};

    uint64_t& operator[](ProfileEvent event) { return values[profileEventIndex(event)]; }
    uint64_t operator[](ProfileEvent event) const { return values[profileEventIndex(event)]; }

    ProfileEventCounts& operator+=(const ProfileEventCounts& other);
    ProfileEventCounts& operator-=(const ProfileEventCounts& other);
    friend ProfileEventCounts operator-(ProfileEventCounts left, const ProfileEventCounts& right)
    {
        return left -= right;
    }
    bool operator==(const ProfileEventCounts&) const = default;
};

}  // namespace granary
