#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "engine/observe/cache_line.h"
#include "engine/observe/profile_event.h"

namespace granary
{

/// Counter strategy (see SharedAtomicCounters for the interface): each thread counts into a block
/// only it writes, with plain loads and stores, so an increment never leaves the core. A thread's
/// counts since it attached to a query are folded into the query when it detaches; readers sum
/// the registered blocks, so totals are live. Totals are exact once no thread is attached.
class PerThreadCounters
{
public:
    class QueryCounters
    {
    private:
        friend class PerThreadCounters;
        /// Counts of tasks that have ended; running tasks are read from their threads' blocks.
        std::array<std::atomic<uint64_t>, kProfileEventCount> folded_{};
    };

    static void increment(ProfileEvent event, uint64_t n)
    {
        ThreadBlock* block = t_block;
        if (block == nullptr) [[unlikely]]
        {
            block = registerThisThread();
        }
        // Only this thread writes the counter: load plus store is exact and no locked instruction.
        std::atomic<uint64_t>& counter = block->lifetime[profileEventIndex(event)];
        counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }

    static QueryCounters* attach(QueryCounters* query);

    static ProfileEventCounts read(const QueryCounters& query);
    static ProfileEventCounts readGlobal();

    /// One thread's counters; public only so that increment can be inlined.
    struct alignas(kCacheLineBytes) ThreadBlock
    {
        /// Everything the thread counted since it started: only ever grows, written by the owner.
        std::array<std::atomic<uint64_t>, kProfileEventCount> lifetime{};
        /// lifetime as it was when the thread attached to `query`.
        alignas(kCacheLineBytes) std::array<std::atomic<uint64_t>, kProfileEventCount> baseline{};
        std::atomic<QueryCounters*> query{nullptr};
    };

private:
    static ThreadBlock* registerThisThread();

    static constinit inline thread_local ThreadBlock* t_block = nullptr;
};

}  // namespace granary
