#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "alloc/memory_tracker.h"
#include "engine/common/exception.h"
#include "engine/exec/executor.h"
#include "engine/exec/phase_recorder.h"
#include "engine/exec/query_stats.h"
#include "engine/observe/profile_events.h"
#include "engine/observe/profiler_thread_scope.h"

namespace granary
{

/// What one running query owns: its threads, its memory tracker (and limit), its cancellation
/// flag and its statistics. cancel() may be called from any thread.
class QueryContext
{
public:
    /// memory_limit_bytes = 0: unlimited.
    explicit QueryContext(size_t threads, size_t memory_limit_bytes = 0)
        : executor_(threads), memory_(memory_limit_bytes)
    {
    }
    /// Runs every parallel region on the host's `runner` (which outlives the context).
    explicit QueryContext(TaskRunner& runner, size_t memory_limit_bytes = 0)
        : executor_(runner), memory_(memory_limit_bytes)
    {
    }

    Executor& executor() { return executor_; }
    MemoryTracker& memory() { return memory_; }
    QueryStats& stats() { return stats_; }
    const QueryStats& stats() const { return stats_; }
    size_t threads() const { return executor_.threads(); }

    /// Workers a parallel operator splits its input among, each with local state of its own
    /// (an aggregation's partial tables): one per thread unless a study asks for more. More
    /// workers than threads run one after another on the threads, each uninterrupted, which
    /// shows on a few cores the tasks and merges of a many-core machine without the cache
    /// losses of time-slicing as many threads (docs/aggregation.md, "Partials beyond threads").
    size_t workers() const { return std::max(workers_, threads()); }
    void setWorkers(size_t workers) { workers_ = workers; }

    /// The query's event counters: tasks are attached to them while they run.
    QueryProfileEvents& profileEvents() { return profile_events_; }

    /// Samples the stacks of the query's tasks into `profiler` (null: no sampling). Set before
    /// the query starts.
    void setProfiler(QueryProfiler* profiler) { profiler_ = profiler; }

    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return cancelled_.load(std::memory_order_relaxed); }
    /// Throws Exception(kQueryCancelled) once cancel() has been called.
    void checkCancelled() const
    {
        if (isCancelled()) [[unlikely]]
        {
            throw Exception(ErrorCode::kQueryCancelled, "query was cancelled");
        }
    }

    /// Runs body(i, timer) for i in [0, count) as tasks of `recorder`'s phase on the query's
    /// threads: each task checks cancellation first, charges its allocations to the query's
    /// tracker and is timed. The first exception (limit, cancellation...) is rethrown here.
    template <typename Body>
    void runTasks(PhaseRecorder& recorder, size_t count, Body&& body)
    {
        runWorkers(count,
                   [&](size_t i)
                   {
                       TaskTimer timer(recorder, i);
                       body(i, timer);
                   });
    }

    /// Like runTasks without the timer: for long-running workers that time their own units
    /// of work (morsels) so that the span reflects the unit, not the worker.
    template <typename Body>
    void runWorkers(size_t count, Body&& body)
    {
        executor_.forEach(count,
                          [&](size_t i)
                          {
                              checkCancelled();
                              MemoryTrackerScope scope(&memory_);
                              ProfileEventsThreadScope events(profile_events_);
                              std::optional<ProfilerThreadScope> sampling;
                              if (profiler_)
                              {
                                  sampling.emplace(*profiler_);
                              }
                              body(i);
                          });
    }

    /// Runs body(i) for i in [0, count) as tasks nested in `parent` (a task of `recorder`):
    /// the parent's clock pauses and the region's longest task joins its chain.
    template <typename Body>
    void runNestedTasks(PhaseRecorder& recorder, TaskTimer& parent, size_t count, Body&& body)
    {
        parent.pause();
        std::atomic<int64_t> longest_ns{0};
        try
        {
            executor_.forEachInTask(
                count,
                [&](size_t i)
                {
                    checkCancelled();
                    MemoryTrackerScope scope(&memory_);
                    ProfileEventsThreadScope events(profile_events_);
                    std::optional<ProfilerThreadScope> sampling;
                    if (profiler_)
                    {
                        sampling.emplace(*profiler_);
                    }
                    const int64_t start = threadCpuNanoseconds();
                    const int64_t start_faults = threadPageFaults();
                    body(i);
                    const int64_t own = threadCpuNanoseconds() - start;
                    recorder.addTask(own, 0, threadPageFaults() - start_faults, i);
                    int64_t longest = longest_ns.load(std::memory_order_relaxed);
                    while (own > longest && !longest_ns.compare_exchange_weak(longest, own))
                    {
                    }
                });
        }
        catch (...)
        {
            parent.resume(longest_ns.load());
            throw;
        }
        parent.resume(longest_ns.load());
    }

private:
    Executor executor_;
    MemoryTracker memory_;
    std::atomic<bool> cancelled_{false};
    QueryProfileEvents profile_events_;
    QueryStats stats_;
    QueryProfiler* profiler_ = nullptr;
    size_t workers_ = 0;
};

}  // namespace granary
