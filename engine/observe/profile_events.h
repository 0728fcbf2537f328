#pragma once

#include <cstdint>

#include "engine/observe/per_thread_counters.h"
#include "engine/observe/profile_event.h"
#include "engine/observe/shared_atomic_counters.h"

namespace granary
{

/// Process-wide entry points: increment from any thread, read the process's totals.
template <typename Strategy>
struct BasicProfileEvents
{
    static void increment(ProfileEvent event, uint64_t n = 1) { Strategy::increment(event, n); }
    static ProfileEventCounts globalSnapshot() { return Strategy::readGlobal(); }
};

template <typename Strategy>
class BasicProfileEventsThreadScope;

/// The counts of one query: create one per query; threads count for it inside a thread scope.
/// Must outlive every scope attached to it.
template <typename Strategy>
class BasicQueryProfileEvents
{
public:
    BasicQueryProfileEvents() = default;
    BasicQueryProfileEvents(const BasicQueryProfileEvents&) = delete;
    BasicQueryProfileEvents& operator=(const BasicQueryProfileEvents&) = delete;

    /// Exact once every thread scope of the query has ended; live (possibly missing a task that
    /// is ending at that moment, never counting one twice) while tasks run.
    ProfileEventCounts snapshot() const { return Strategy::read(counters_); }

private:
    friend class BasicProfileEventsThreadScope<Strategy>;
    typename Strategy::QueryCounters counters_;
};

/// Attaches the current thread to a query while a task runs: increments count for the query and
/// for the process. On destruction the thread's counts are folded into the query and the thread
/// counts for whatever it counted for before. Create and destroy on the same thread.
template <typename Strategy>
class BasicProfileEventsThreadScope
{
public:
    explicit BasicProfileEventsThreadScope(BasicQueryProfileEvents<Strategy>& query)
        : previous_(Strategy::attach(&query.counters_))
    {
    }
    ~BasicProfileEventsThreadScope() { Strategy::attach(previous_); }

    BasicProfileEventsThreadScope(const BasicProfileEventsThreadScope&) = delete;
    BasicProfileEventsThreadScope& operator=(const BasicProfileEventsThreadScope&) = delete;

private:
    typename Strategy::QueryCounters* previous_;
};

/// Per-thread blocks: fastest in bench/contention (BM_Counters, docs/many-core-hygiene.md).
using DefaultCounterStrategy = PerThreadCounters;

using ProfileEvents = BasicProfileEvents<DefaultCounterStrategy>;
using QueryProfileEvents = BasicQueryProfileEvents<DefaultCounterStrategy>;
using ProfileEventsThreadScope = BasicProfileEventsThreadScope<DefaultCounterStrategy>;

}  // namespace granary
