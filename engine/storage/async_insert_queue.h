#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/columns/block.h"

namespace granary
{

class Database;

/// ClickHouse's async_insert: small inserts into one table are gathered into a batch that one
/// all-or-nothing insert writes (one part, one set of fsyncs) once it holds max_bytes of data
/// or its first insert has waited busy_timeout. Every insert of a batch learns the batch's
/// outcome through its future: success, or the exception that failed the whole batch.
class AsyncInsertQueue
{
public:
    struct Limits
    {
        std::chrono::milliseconds busy_timeout{200};  ///< ClickHouse's default.
        size_t max_bytes = size_t{10} << 20;          ///< async_insert_max_data_size.
    };

    explicit AsyncInsertQueue(Database& database);
    /// Writes what is queued, then stops.
    ~AsyncInsertQueue();
    AsyncInsertQueue(const AsyncInsertQueue&) = delete;
    AsyncInsertQueue& operator=(const AsyncInsertQueue&) = delete;

    /// Queues `blocks` (the table's columns in schema order, as an insert takes them) of
    /// `bytes` input bytes; the future is ready once their batch is inserted or has failed.
    std::shared_future<void> add(const std::string& table, std::vector<Block> blocks,
                                 size_t bytes, const Limits& limits);

private:
    struct Batch
    {
        std::vector<Block> blocks;
        size_t bytes = 0;
        size_t max_bytes = 0;
        std::chrono::steady_clock::time_point deadline;
        std::promise<void> done;
        std::shared_future<void> future;
    };

    void run();
    /// Takes out the batches that are due (all of them when stopping); the lock is held.
    std::vector<std::pair<std::string, Batch>> takeDue(bool all);

    Database& database_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::string, Batch> batches_;  ///< One open batch per table.
    bool stopping_ = false;
    std::thread flusher_;
};

}  // namespace granary
