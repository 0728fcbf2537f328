#include "engine/storage/async_insert_queue.h"

#include <algorithm>

#include "engine/storage/database.h"

namespace granary
{

AsyncInsertQueue::AsyncInsertQueue(Database& database)
    : database_(database), flusher_([this] { run(); })
{
}

AsyncInsertQueue::~AsyncInsertQueue()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_one();
    flusher_.join();
}

std::shared_future<void> AsyncInsertQueue::add(const std::string& table, std::vector<Block> blocks,
                                               size_t bytes, const Limits& limits)
{
    std::shared_future<void> future;
    {
        std::lock_guard lock(mutex_);
        auto [found, created] = batches_.try_emplace(table);
        Batch& batch = found->second;
        if (created)
        {
            batch.deadline = std::chrono::steady_clock::now() + limits.busy_timeout;
            batch.max_bytes = limits.max_bytes;
            batch.future = batch.done.get_future().share();
        }
        for (Block& block : blocks)
        {
            batch.blocks.push_back(std::move(block));
        }
        batch.bytes += bytes;
        future = batch.future;
    }
    changed_.notify_one();
    return future;
}

std::vector<std::pair<std::string, AsyncInsertQueue::Batch>> AsyncInsertQueue::takeDue(bool all)
{
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::pair<std::string, Batch>> due;
    for (auto batch = batches_.begin(); batch != batches_.end();)
    {
        if (all || batch->second.deadline <= now || batch->second.bytes >= batch->second.max_bytes)
        {
            due.emplace_back(batch->first, std::move(batch->second));
            batch = batches_.erase(batch);
        }
        else
        {
            ++batch;
        }
    }
    return due;
}

void AsyncInsertQueue::run()
{
    std::unique_lock lock(mutex_);
    while (true)
    {
        const bool stopping = stopping_;
        std::vector<std::pair<std::string, Batch>> due = takeDue(stopping);
        if (due.empty())
        {
            if (stopping)
            {
                return;
            }
            auto deadline = std::chrono::steady_clock::time_point::max();
            for (const auto& [table, batch] : batches_)
            {
                deadline = std::min(deadline, batch.deadline);
            }
            changed_.wait_until(lock, deadline);
            continue;
        }
        lock.unlock();
        for (auto& [table, batch] : due)
        {
            try
            {
                database_.insertOnePart(table, std::move(batch.blocks));
                batch.done.set_value();
            }
            catch (...)
            {
                batch.done.set_exception(std::current_exception());
            }
        }
        lock.lock();
    }
}

}  // namespace granary
