#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace granary::server
{

/// A fixed set of threads that run submitted jobs in order. The HTTP interface decodes and
/// inserts request bodies here, not on the threads that read sockets, so that decoding work
/// is bounded by the cores whatever the number of connections (the seed's lesson from Rotel).
class WorkerPool
{
public:
    explicit WorkerPool(size_t threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    /// Runs `job` on a pool thread and waits for it: returns its result or rethrows.
    template <typename Job>
    auto run(Job job) -> decltype(job())
    {
        std::packaged_task<decltype(job())()> task(std::move(job));
        auto result = task.get_future();
        submit([&task] { task(); });
        return result.get();
    }

    size_t threads() const { return threads_.size(); }

private:
    void submit(std::function<void()> job);
    void work();

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace granary::server
