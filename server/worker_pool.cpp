#include "server/worker_pool.h"

#include <algorithm>

namespace granary::server
{

WorkerPool::WorkerPool(size_t threads)
{
    for (size_t index = 0; index < std::max<size_t>(1, threads); ++index)
    {
        threads_.emplace_back([this] { work(); });
    }
}

WorkerPool::~WorkerPool()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& thread : threads_)
    {
        thread.join();
    }
}

void WorkerPool::submit(std::function<void()> job)
{
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    ready_.notify_one();
}

void WorkerPool::work()
{
    for (;;)
    {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty())
            {
                return;
            }
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        job();
    }
}

}  // namespace granary::server
