#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <vector>

#include "engine/exec/query_stats.h"

namespace granary
{

/// CPU time of the calling thread in nanoseconds. CPU time, not wall time: on an
/// oversubscribed machine a task's wall time includes the time it waited for a core.
inline int64_t threadCpuNanoseconds()
{
    timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

/// Page faults (minor and major) the calling thread has taken so far.
inline int64_t threadPageFaults()
{
    rusage usage;
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt + usage.ru_majflt;
}

inline int64_t wallNanoseconds()
{
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

/// Whether a phase's recorder counts its wall time: not when its tasks run inside another
/// phase's (the bucket tasks that finalize what they merged), whose wall already holds them.
enum class PhaseWall
{
    kOwn,
    kInsideAnotherPhase,
};

/// Measures one phase: its wall time from construction to finish(), and the work and span of
/// the tasks it ran (each task measured by a TaskTimer). Thread-safe.
class PhaseRecorder
{
public:
    explicit PhaseRecorder(PhaseStats& stats, PhaseWall wall = PhaseWall::kOwn)
        : stats_(stats), wall_(wall), wall_start_(wallNanoseconds())
    {
    }
    ~PhaseRecorder() { finish(); }
    PhaseRecorder(const PhaseRecorder&) = delete;
    PhaseRecorder& operator=(const PhaseRecorder&) = delete;

    /// Records a task that took `own_ns` of CPU itself, waited for nested tasks whose longest
    /// chain was `nested_span_ns`, and took `own_faults` page faults itself.
    void addTask(int64_t own_ns, int64_t nested_span_ns, int64_t own_faults, size_t index = 0,
                 const TaskFacts& facts = {})
    {
        const int64_t chain = own_ns + nested_span_ns;
        const TaskSample sample{.chain_seconds = static_cast<double>(chain) * 1e-9,
                                .faulted = own_faults > 0,
                                .own_seconds = static_cast<double>(own_ns) * 1e-9,
                                .page_faults = static_cast<size_t>(own_faults),
                                .index = index,
                                .facts = facts};
        std::lock_guard lock(mutex_);
        work_ns_ += own_ns;
        span_ns_ = std::max(span_ns_, chain);
        samples_.push_back(sample);
    }

    /// Writes wall, work, span, task count and the tasks' samples into the phase's stats
    /// (adding to what earlier recorders of the same phase wrote). Idempotent.
    void finish()
    {
        if (finished_)
        {
            return;
        }
        finished_ = true;
        if (wall_ == PhaseWall::kOwn)
        {
            const int64_t wall_end = wallNanoseconds();
            stats_.wall_seconds += static_cast<double>(wall_end - wall_start_) * 1e-9;
            stats_.intervals.push_back({wall_start_, wall_end});
        }
        std::lock_guard lock(mutex_);
        stats_.work_seconds += static_cast<double>(work_ns_) * 1e-9;
        stats_.span_seconds += static_cast<double>(span_ns_) * 1e-9;
        stats_.tasks += samples_.size();
        stats_.task_samples.insert(stats_.task_samples.end(), samples_.begin(), samples_.end());
    }

private:
    PhaseStats& stats_;
    PhaseWall wall_;
    int64_t wall_start_;
    /// Tasks last a morsel or a bucket (0.1 ms and more), so one lock per task costs nothing
    /// measurable.
    std::mutex mutex_;
    int64_t work_ns_ = 0;
    int64_t span_ns_ = 0;
    std::vector<TaskSample> samples_;
    bool finished_ = false;
};

/// Times one task for a PhaseRecorder and counts its page faults. While the task waits for a
/// nested parallel region, its own clock and fault count are paused and the region's longest
/// task is added to its chain instead.
class TaskTimer
{
public:
    /// `index`: the task's place in its region (morsel, bucket, worker), for the statistics.
    explicit TaskTimer(PhaseRecorder& recorder, size_t index = 0)
        : recorder_(recorder),
          index_(index),
          started_ns_(threadCpuNanoseconds()),
          started_faults_(threadPageFaults())
    {
    }
    ~TaskTimer()
    {
        pause();
        recorder_.addTask(own_ns_, nested_span_ns_, own_faults_, index_, facts_);
    }
    TaskTimer(const TaskTimer&) = delete;
    TaskTimer& operator=(const TaskTimer&) = delete;

    void pause()
    {
        own_ns_ += threadCpuNanoseconds() - started_ns_;
        own_faults_ += threadPageFaults() - started_faults_;
    }
    void resume(int64_t nested_span_ns)
    {
        nested_span_ns_ += nested_span_ns;
        started_ns_ = threadCpuNanoseconds();
        started_faults_ = threadPageFaults();
    }
    /// What the task's body reports of itself (rows, groups, growths).
    TaskFacts& facts() { return facts_; }

private:
    PhaseRecorder& recorder_;
    size_t index_;
    TaskFacts facts_;
    int64_t started_ns_;
    int64_t started_faults_;
    int64_t own_ns_ = 0;
    int64_t own_faults_ = 0;
    int64_t nested_span_ns_ = 0;
};

}  // namespace granary
