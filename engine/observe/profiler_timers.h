#pragma once

#include <chrono>

#include "engine/observe/profiler_thread_state.h"

namespace granary
{

/// Timer policies: how a thread's CPU-time sampling timer is started when the thread begins a
/// task for a profiled query (arm, called once the thread samples for the query) and stopped
/// when the task ends (disarm).

/// One timer per thread, created the first time the thread is profiled and then only armed and
/// disarmed: no timer creation or deletion and no shared state per query.
struct PerThreadTimer
{
    static void arm(ProfilerThreadState& thread, std::chrono::nanoseconds period);
    static void disarm(ProfilerThreadState& thread);
};

/// Like PerThreadTimer, but a task's end leaves the timer running: the first signal that finds
/// the thread outside a query stops it. Back-to-back tasks then attach and detach without any
/// system call, and a thread leaving a query takes at most one stray signal.
struct LazyPerThreadTimer
{
    static void arm(ProfilerThreadState& thread, std::chrono::nanoseconds period);
    static void disarm(ProfilerThreadState& thread) {}
};

/// The naive design, kept for comparison: a timer created and deleted for every task, and
/// registered in a process-wide table under a global mutex.
struct PerQueryTimer
{
    static void arm(ProfilerThreadState& thread, std::chrono::nanoseconds period);
    static void disarm(ProfilerThreadState& thread);
};

}  // namespace granary
