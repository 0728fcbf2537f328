#pragma once

// The threads Granary's parallel phases run on, when the host wants them to be its own.

#include <cstddef>
#include <functional>

namespace granary
{

/// A host's task scheduler. Every parallel phase of a query (merge, conversion, finalize)
/// hands its tasks to run(); Granary then starts no thread of its own.
class TaskRunner
{
public:
    virtual ~TaskRunner() = default;

    /// Tasks the runner can run at once: the merge plans for this many workers.
    virtual size_t concurrency() const = 0;
    /// Runs task(i) for every i in [0, count) and returns once all have returned. Tasks may
    /// run on any threads, the calling one included, in any order; `task` never throws (errors
    /// are carried to the caller by Granary). A task may call run() again for a nested region:
    /// the runner must allow that, for instance by running nested tasks on the calling thread.
    virtual void run(size_t count, const std::function<void(size_t)>& task) = 0;
};

/// Runs every task on the calling thread, one after another.
class CallingThreadRunner final : public TaskRunner
{
public:
    size_t concurrency() const override { return 1; }
    void run(size_t count, const std::function<void(size_t)>& task) override
    {
        for (size_t i = 0; i < count; ++i)
        {
            task(i);
        }
    }
};

}  // namespace granary
