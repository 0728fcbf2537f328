#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace granary::bench
{

/// A host's thread pool: `helpers` threads that live across queries and run, beside the
/// caller, the work each query hands them. A host that started threads per query would give
/// each query threads that the allocator has never seen (fresh caches, an arena without the
/// last query's freed pages); a pool is what an embedding engine runs in.
class HostThreads
{
public:
    explicit HostThreads(size_t helpers)
    {
        for (size_t helper = 0; helper < helpers; ++helper)
        {
            threads_.emplace_back([this](std::stop_token stop) { serve(stop); });
        }
    }
    ~HostThreads()
    {
        {
            // Under the lock: a helper between its check and its wait would miss the wake-up.
            std::lock_guard lock(mutex_);
            for (std::jthread& thread : threads_)
            {
                thread.request_stop();
            }
        }
        wake_.notify_all();
    }
    HostThreads(const HostThreads&) = delete;
    HostThreads& operator=(const HostThreads&) = delete;

    /// Runs `work` on every helper and on the calling thread; returns when all have finished.
    void run(const std::function<void()>& work)
    {
        {
            std::lock_guard lock(mutex_);
            work_ = &work;
            running_ = threads_.size();
            ++round_;
        }
        wake_.notify_all();
        work();
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return running_ == 0; });
    }

private:
    void serve(std::stop_token stop)
    {
        size_t served = 0;
        std::unique_lock lock(mutex_);
        while (true)
        {
            wake_.wait(lock, [&] { return stop.stop_requested() || round_ != served; });
            if (stop.stop_requested())
            {
                return;
            }
            served = round_;
            const std::function<void()>& work = *work_;
            lock.unlock();
            work();
            lock.lock();
            if (--running_ == 0)
            {
                done_.notify_one();
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void()>* work_ = nullptr;
    size_t running_ = 0;
    size_t round_ = 0;
    std::vector<std::jthread> threads_;  ///< Last: they stop before the members they use go.
};

}  // namespace granary::bench
