#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <cstddef>
#include <memory>

namespace granary
{

/// A query's threads: a oneTBB arena of `threads` slots. Thread counts above the number of
/// cores are allowed (oversubscription), so many-partial merge paths can be exercised on a
/// small machine.
class Executor
{
public:
    explicit Executor(size_t threads);
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    size_t threads() const { return threads_; }

    /// Runs body(i) for every i in [0, count) as independent tasks and waits for all. The
    /// first exception thrown by a task is rethrown here after the others stop.
    template <typename Body>
    void forEach(size_t count, Body&& body)
    {
        arena_->execute(
            [&]
            {
                tbb::parallel_for(
                    tbb::blocked_range<size_t>(0, count, 1),
                    [&](const tbb::blocked_range<size_t>& range)
                    {
                        for (size_t i = range.begin(); i != range.end(); ++i)
                        {
                            body(i);
                        }
                    },
                    tbb::simple_partitioner());
            });
    }

    /// Same as forEach, for a region nested inside a running task: the waiting thread only
    /// picks up tasks of this region, so an outer task is never interleaved with unrelated
    /// work (which would also distort its measured time).
    template <typename Body>
    static void forEachNested(size_t count, Body&& body)
    {
        tbb::this_task_arena::isolate(
            [&]
            {
                tbb::parallel_for(
                    tbb::blocked_range<size_t>(0, count, 1),
                    [&](const tbb::blocked_range<size_t>& range)
                    {
                        for (size_t i = range.begin(); i != range.end(); ++i)
                        {
                            body(i);
                        }
                    },
                    tbb::simple_partitioner());
            });
    }

private:
    size_t threads_;
    std::unique_ptr<tbb::task_arena> arena_;
};

}  // namespace granary
