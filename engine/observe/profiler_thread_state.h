#pragma once

#include <signal.h>
#include <sys/types.h>

#include <atomic>
#include <ctime>
#include <optional>

#include "engine/observe/stack_sample_ring.h"

namespace granary
{

class QueryProfiler;

/// Signal that CPU-time profiling timers deliver to the thread they measure.
inline constexpr int kProfilerSignal = SIGPROF;

/// The profiler's state for one thread: created the first time the thread works for a profiled
/// query and kept until the thread exits, so later queries only arm and disarm its timer.
class ProfilerThreadState
{
public:
    /// The calling thread's state, created on first use. Not async-signal-safe.
    static ProfilerThreadState& current();
    /// The calling thread's state or null if it has none. Async-signal-safe.
    static ProfilerThreadState* currentIfCreated();

    /// The signal handler's work. Async-signal-safe. Records the stack above the interrupted
    /// instruction if the thread samples for a query; otherwise stops a lazily kept timer.
    void onProfilerSignal(const void* interrupted_pc);

    /// Sends the thread's samples to `query` from now on (none with nullptr) and returns the
    /// query it sampled for before, after moving that query's pending samples to it.
    QueryProfiler* switchTo(QueryProfiler* query);
    QueryProfiler* query() const { return query_; }

    pid_t threadId() const { return thread_id_; }

    /// The per-thread policies' timer: created once, deleted when the thread exits.
    std::optional<timer_t> thread_timer;
    /// LazyPerThreadTimer: the period thread_timer runs with, zero while stopped. Cleared by
    /// the signal handler when it stops the timer.
    std::atomic<int64_t> running_period_ns{0};
    /// PerQueryTimer's timer: created and deleted around each attach.
    std::optional<timer_t> query_timer;

    ProfilerThreadState();
    ~ProfilerThreadState();
    ProfilerThreadState(const ProfilerThreadState&) = delete;
    ProfilerThreadState& operator=(const ProfilerThreadState&) = delete;

private:
    void flush();

    const pid_t thread_id_;
    StackSampleRing samples_;
    /// Read by the signal handler: whether a sample now belongs to a query.
    std::atomic<bool> sampling_{false};
    QueryProfiler* query_ = nullptr;
};

/// Installs the process's profiling signal handler once and loads the unwinder ahead of the
/// first signal (its first use loads libgcc_s, which is not async-signal-safe).
void installProfilerSignalHandler();

}  // namespace granary
