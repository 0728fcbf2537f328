#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "engine/observe/cache_line.h"
#include "engine/observe/profile_event.h"

namespace granary
{

/// One atomic counter per event, each in a slot of SlotAlignment bytes: 8 packs eight counters
/// into a cache line, 64 gives each counter a line of its own.
template <size_t SlotAlignment>
class AtomicCounterArray
{
public:
    void add(ProfileEvent event, uint64_t n)
    {
        slots_[profileEventIndex(event)].value.fetch_add(n, std::memory_order_relaxed);
    }

    ProfileEventCounts read() const
    {
        ProfileEventCounts counts;
        for (size_t i = 0; i < kProfileEventCount; ++i)
        {
            counts.values[i] = slots_[i].value.load(std::memory_order_relaxed);
        }
        return counts;
    }

private:
    struct alignas(SlotAlignment) Slot
    {
        std::atomic<uint64_t> value{0};
    };
    Slot slots_[kProfileEventCount];
};

/// Counter strategy: every increment is an atomic add on the process-wide counter and, while the
/// thread works for a query, on the query's counter. Reads are exact at any time.
///
/// A counter strategy provides QueryCounters (per-query storage), increment, attach (makes the
/// thread count for a query, or for none with nullptr, and returns the query it counted for),
/// read (a query's totals) and readGlobal (the process's totals).
template <size_t SlotAlignment>
class SharedAtomicCounters
{
public:
    using QueryCounters = AtomicCounterArray<SlotAlignment>;

    static void increment(ProfileEvent event, uint64_t n)
    {
        global_.add(event, n);
        if (QueryCounters* query = t_query) [[likely]]
        {
            query->add(event, n);
        }
    }

    static QueryCounters* attach(QueryCounters* query) { return std::exchange(t_query, query); }

    static ProfileEventCounts read(const QueryCounters& query) { return query.read(); }
    static ProfileEventCounts readGlobal() { return global_.read(); }

private:
    static constinit inline QueryCounters global_{};
    static constinit inline thread_local QueryCounters* t_query = nullptr;
};

/// Eight counters to a cache line: threads bumping different events still fight over the line.
using PackedAtomicCounters = SharedAtomicCounters<alignof(std::atomic<uint64_t>)>;
/// A line per counter (the seed's fix): no false sharing, but one hot event is still shared.
using AlignedAtomicCounters = SharedAtomicCounters<kCacheLineBytes>;

}  // namespace granary
