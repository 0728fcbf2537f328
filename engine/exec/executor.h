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

#include "granary/task_runner.h"

namespace granary
{

/// The first exception of a parallel region's tasks: later tasks see failed() and skip their
/// work, and the region rethrows it once every task has returned.
class FirstError
{
public:
    template <typename Body>
    void run(Body&& body) noexcept
    {
        if (failed_.load(std::memory_order_relaxed))
        {
            return;
        }
        try
        {
            body();
        }
        catch (...)
        {
            std::lock_guard lock(mutex_);
            if (!error_)
            {
                error_ = std::current_exception();
            }
            failed_ = true;
        }
    }
    bool failed() const { return failed_.load(std::memory_order_relaxed); }
    void rethrowIfFailed()
    {
        if (error_)
        {
            std::rethrow_exception(error_);
        }
    }

private:
    std::atomic<bool> failed_{false};
    std::mutex mutex_;
    std::exception_ptr error_;
};

/// A query's threads: a oneTBB arena of `threads` slots, or a host's TaskRunner. Thread counts
/// above the number of cores are allowed (oversubscription), so many-partial merge paths can
/// be exercised on a small machine.
class Executor
{
public:
    explicit Executor(size_t threads);
    /// Every region runs on `runner` (which outlives the executor): no oneTBB thread at all.
    explicit Executor(TaskRunner& runner);
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    size_t threads() const { return threads_; }

    /// Runs body(i) for every i in [0, count) as independent tasks and waits for all. The
    /// first exception thrown by a task is rethrown here after the others stop.
    template <typename Body>
    void forEach(size_t count, Body&& body)
    {
        if (runner_ != nullptr)
        {
            runOnHost(count, body);
            return;
        }
#if GRANARY_TSAN_EXECUTOR
        forEachOnThreads(threads_, count, body);
#else
        arena_->execute([&] { forEachNested(count, body); });
#endif
    }

    /// Same as forEach, for a region nested inside a task of this executor.
    template <typename Body>
    void forEachInTask(size_t count, Body&& body)
    {
        if (runner_ != nullptr)
        {
            runOnHost(count, body);
            return;
        }
        forEachNested(count, body);
    }

    /// Same as forEach, for a region nested inside a running oneTBB task: the waiting thread
    /// only picks up tasks of this region, so an outer task is never interleaved with
    /// unrelated work (which would also distort its measured time).
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
    template <typename Body>
    void runOnHost(size_t count, Body& body)
    {
        FirstError error;
        runner_->run(count, [&](size_t i) { error.run([&] { body(i); }); });
        error.rethrowIfFailed();
    }

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
        FirstError error;
        auto work = [&]
        {
            for (size_t i = next++; i < count && !error.failed(); i = next++)
            {
                error.run([&] { body(i); });
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
        error.rethrowIfFailed();
    }
#endif

    size_t threads_;
    std::unique_ptr<tbb::task_arena> arena_;
    TaskRunner* runner_ = nullptr;
};

}  // namespace granary
