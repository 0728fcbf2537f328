#include "engine/exec/reader_scalable_shared_mutex.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

namespace granary
{
namespace
{

/// More threads than reader slots, so that slots are shared too.
constexpr size_t kReaders = 80;
constexpr size_t kWriters = 4;
constexpr size_t kReadsPerReader = 2000;
constexpr size_t kWritesPerWriter = 500;

TEST(ReaderScalableSharedMutex, WritersExcludeReadersAndEachOther)
{
    ReaderScalableSharedMutex mutex;
    // Plain (non-atomic) fields: ThreadSanitizer reports any access the mutex fails to order.
    uint64_t first = 0;
    uint64_t second = 0;
    std::atomic<size_t> torn_reads{0};

    std::vector<std::thread> threads;
    for (size_t w = 0; w < kWriters; ++w)
    {
        threads.emplace_back(
            [&]
            {
                for (size_t i = 0; i < kWritesPerWriter; ++i)
                {
                    std::unique_lock lock(mutex);
                    ++first;
                    std::this_thread::yield();
                    ++second;
                }
            });
    }
    for (size_t r = 0; r < kReaders; ++r)
    {
        threads.emplace_back(
            [&]
            {
                for (size_t i = 0; i < kReadsPerReader; ++i)
                {
                    std::shared_lock lock(mutex);
                    if (first != second)
                    {
                        torn_reads.fetch_add(1);
                    }
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    EXPECT_EQ(torn_reads.load(), 0u);
    EXPECT_EQ(first, kWriters * kWritesPerWriter);
    EXPECT_EQ(second, kWriters * kWritesPerWriter);
}

TEST(ReaderScalableSharedMutex, ReadersShareTheLock)
{
    ReaderScalableSharedMutex mutex;
    std::shared_lock first(mutex);
    std::atomic<bool> second_reader_entered{false};
    std::thread(
        [&]
        {
            std::shared_lock second(mutex);
            second_reader_entered = true;
        })
        .join();
    EXPECT_TRUE(second_reader_entered.load());
}

}  // namespace
}  // namespace granary
