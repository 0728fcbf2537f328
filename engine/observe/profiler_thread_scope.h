#pragma once

#include "engine/observe/profiler_thread_state.h"
#include "engine/observe/profiler_timers.h"
#include "engine/observe/query_profiler.h"

namespace granary
{

/// Samples the current thread for `query` while a task runs: arms the thread's CPU-time timer,
/// and on destruction disarms it and hands the task's samples to the query. Nested scopes move
/// the samples to the inner query and back. Create and destroy on the same thread.
template <typename TimerPolicy>
class BasicProfilerThreadScope
{
public:
    explicit BasicProfilerThreadScope(QueryProfiler& query)
        : thread_(ProfilerThreadState::current()), previous_(thread_.switchTo(&query))
    {
        if (previous_ != nullptr)
        {
            return;
        }
        try
        {
            TimerPolicy::arm(thread_, query.period());
        }
        catch (...)
        {
            thread_.switchTo(previous_);
            throw;
        }
    }

    ~BasicProfilerThreadScope()
    {
        if (previous_ == nullptr)
        {
            TimerPolicy::disarm(thread_);
        }
        thread_.switchTo(previous_);
    }

    BasicProfilerThreadScope(const BasicProfilerThreadScope&) = delete;
    BasicProfilerThreadScope& operator=(const BasicProfilerThreadScope&) = delete;

private:
    ProfilerThreadState& thread_;
    QueryProfiler* previous_;
};

/// A timer per thread, kept running between back-to-back tasks: fastest in bench/contention
/// (BM_ProfilerAttach), with no timer creation, deletion or global lock per query.
using ProfilerThreadScope = BasicProfilerThreadScope<LazyPerThreadTimer>;

}  // namespace granary
