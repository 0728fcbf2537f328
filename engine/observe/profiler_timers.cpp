#include "engine/observe/profiler_timers.h"

#include <cerrno>
#include <mutex>
#include <system_error>
#include <unordered_map>

namespace granary
{
namespace
{

/// A timer on the thread's CPU-time clock that signals that thread alone (SIGEV_THREAD_ID).
timer_t createThreadCpuTimer(pid_t thread_id)
{
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = kProfilerSignal;
    event._sigev_un._tid = thread_id;
    timer_t timer{};
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0)
    {
        throw std::system_error(errno, std::generic_category(), "timer_create");
    }
    return timer;
}

/// Fires every `period` of CPU time; a zero period disarms.
void setTimer(timer_t timer, std::chrono::nanoseconds period)
{
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(period);
    timespec interval{static_cast<time_t>(seconds.count()),
                      static_cast<long>((period - seconds).count())};
    itimerspec setting{interval, interval};
    if (timer_settime(timer, 0, &setting, nullptr) != 0)
    {
        throw std::system_error(errno, std::generic_category(), "timer_settime");
    }
}

/// The naive design's shared state: every thread's current timer, behind one mutex.
struct ActiveTimerTable
{
    std::mutex mutex;
    std::unordered_map<pid_t, timer_t> timers;
};

ActiveTimerTable& activeTimers()
{
    static ActiveTimerTable table;
    return table;
}

}  // namespace

void PerThreadTimer::arm(ProfilerThreadState& thread, std::chrono::nanoseconds period)
{
    if (!thread.thread_timer)
    {
        thread.thread_timer = createThreadCpuTimer(thread.threadId());
    }
    setTimer(*thread.thread_timer, period);
}

void LazyPerThreadTimer::arm(ProfilerThreadState& thread, std::chrono::nanoseconds period)
{
    // The thread already samples, so from here on a signal samples instead of stopping the
    // timer: a running timer read below stays running.
    if (thread.running_period_ns.load(std::memory_order_relaxed) == period.count())
    {
        return;
    }
    PerThreadTimer::arm(thread, period);
    thread.running_period_ns.store(period.count(), std::memory_order_relaxed);
}

void PerThreadTimer::disarm(ProfilerThreadState& thread)
{
    // Also for LazyPerThreadTimer, should both be used on one thread: the timer is stopped.
    thread.running_period_ns.store(0, std::memory_order_relaxed);
    setTimer(*thread.thread_timer, std::chrono::nanoseconds::zero());
}

void PerQueryTimer::arm(ProfilerThreadState& thread, std::chrono::nanoseconds period)
{
    const timer_t timer = createThreadCpuTimer(thread.threadId());
    {
        ActiveTimerTable& table = activeTimers();
        std::lock_guard lock(table.mutex);
        table.timers[thread.threadId()] = timer;
    }
    thread.query_timer = timer;
    setTimer(timer, period);
}

void PerQueryTimer::disarm(ProfilerThreadState& thread)
{
    {
        ActiveTimerTable& table = activeTimers();
        std::lock_guard lock(table.mutex);
        table.timers.erase(thread.threadId());
    }
    timer_delete(*thread.query_timer);
    thread.query_timer.reset();
}

}  // namespace granary
