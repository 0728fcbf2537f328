#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

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
#if GRANARY_TSAN_EXECUTOR
        forEachOnThreads(threads_, count, body);
#else
        arena_->execute([&] { forEachNested(count, body); });
#endif
    }

    /// Same as forEach, for a region nested inside a running task: the waiting thread only
    /// picks up tasks of this region, so an outer task is never interleaved with unrelated
    /// work (which would also distort its measured time).
    template <typename Body>
    static void forEachNested(size_t count, Body&& body)
    {
#if GRANARY_TSAN_EXECUTOR
        forEachOnThreads(kTsanNestedThreads, count, body);
#else
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
#endif
    }

private:
#if GRANARY_TSAN_EXECUTOR
    /// Debian's oneTBB is not built with ThreadSanitizer, which cannot see the synchronization
    /// inside its scheduler and reports races in every task hand-off. ThreadSanitizer builds
    /// therefore run regions on plain threads that take indices from an atomic counter: every
    /// hand-off (thread start, join, the counter) is one TSan understands, so what it reports
    /// is Granary's own.
    static constexpr size_t kTsanNestedThreads = 4;

    template <typename Body>
    static void forEachOnThreads(size_t threads, size_t count, Body& body)
    {
        std::atomic<size_t> next{0};
        std::atomic<bool> failed{false};
        std::exception_ptr first_error;
        std::mutex error_mutex;
        auto work = [&]
        {
            for (size_t i = next++; i < count && !failed; i = next++)
            {
                try
                {
                    body(i);
                }
                catch (...)
                {
                    std::lock_guard lock(error_mutex);
                    if (!first_error)
                    {
                        first_error = std::current_exception();
                    }
                    failed = true;
                }
            }
        };
        std::vector<std::thread> workers;
        for (size_t t = 1; t < std::min(threads, count); ++t)
        {
            workers.emplace_back(work);
        }
        work();
        for (std::thread& worker : workers)
        {
            worker.join();
        }
        if (first_error)
        {
            std::rethrow_exception(first_error);
        }
    }
#endif

    size_t threads_;
    std::unique_ptr<tbb::task_arena> arena_;
};

}  // namespace granary
