// Memory limits and cancellation: both raise catchable errors, promptly, without leaks.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "alloc/allocator_stats.h"
#include "engine/aggregation/aggregator.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// A UInt64 column of `rows` distinct values: every row is its own group.
Block distinctKeys(size_t rows)
{
    Block block;
    block.columns.push_back({"key", Column(TypeId::UInt64)});
    Column& column = block.columns.back().column;
    column.resizeFixed(rows);
    uint64_t* keys = column.mutableData<uint64_t>();
    for (size_t row = 0; row < rows; ++row)
    {
        keys[row] = (row + 1) * 0x9E3779B97F4A7C15ULL;
    }
    return block;
}

TEST(MemoryLimit, QueryOverItsLimitStopsWithACatchableErrorNearTheLimit)
{
    const Block input = distinctKeys(4'000'000);
    const size_t limit = 48 * 1024 * 1024;
    AggregationSettings settings;
    settings.max_threads = 2;
    Aggregator aggregator({"key"}, {{"count", {}, "c"}, {"sum", {"key"}, "s"}}, settings);

    // Independent oracle: the allocator's own count of live bytes, sampled during the query.
    std::atomic<bool> running{true};
    std::atomic<size_t> peak_allocated{0};
    const size_t baseline = readAllocatorStats() ? readAllocatorStats()->allocated_bytes : 0;
    std::thread sampler(
        [&]
        {
            while (running)
            {
                if (auto stats = readAllocatorStats())
                {
                    peak_allocated = std::max<size_t>(peak_allocated, stats->allocated_bytes);
                }
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        });
    QueryContext context(2, limit);
    bool stopped = false;
    try
    {
        aggregator.execute(BlockView::of(input), context);
    }
    catch (const MemoryLimitExceeded& e)
    {
        stopped = true;
        EXPECT_EQ(e.limitBytes(), limit);
        EXPECT_NE(std::string(e.what()).find("memory limit"), std::string::npos);
    }
    running = false;
    sampler.join();
    EXPECT_TRUE(stopped);
    std::printf(
        "limit %zu B: tracked peak %zu B (%.1f%%), allocator peak above baseline %zu B "
        "(%.1f%%)\n",
        limit, context.memory().peakBytes(),
        100.0 * static_cast<double>(context.memory().peakBytes()) / limit,
        peak_allocated - baseline, 100.0 * static_cast<double>(peak_allocated - baseline) / limit);
    // The tracked peak never passes the limit; what the allocator saw stays within 10% of it.
    EXPECT_LE(context.memory().peakBytes(), limit);
    if (jemallocActive())
    {
        EXPECT_LE(peak_allocated - baseline, limit + limit / 10)
            << "allocator peak " << peak_allocated - baseline;
    }
    // Everything was freed as the error unwound.
    EXPECT_EQ(context.memory().usedBytes(), 0u);

    // The same query under a sufficient limit succeeds.
    QueryContext roomy(2, 1024 * 1024 * 1024);
    EXPECT_EQ(aggregator.execute(BlockView::of(input), roomy).rows(), 4'000'000u);
}

TEST(Cancellation, AQueryCancelledFromAnotherThreadStopsPromptly)
{
    const Block input = distinctKeys(3'000'000);
    AggregationSettings settings;
    settings.max_threads = 4;
    settings.morsel_rows = 8192;
    Aggregator aggregator({"key"}, {{"uniqExact", {"key"}, "u"}}, settings);
    // Cancellations land within the first quarter of an uncancelled run, however fast the
    // machine: never after the query could have finished.
    QueryContext uncancelled(4);
    const auto started = std::chrono::steady_clock::now();
    aggregator.execute(BlockView::of(input), uncancelled);
    const auto quarter = (std::chrono::steady_clock::now() - started) / 4;
    for (const auto delay : {std::chrono::steady_clock::duration::zero(), quarter / 6, quarter})
    {
        QueryContext context(4);
        std::thread canceller(
            [&]
            {
                std::this_thread::sleep_for(delay);
                context.cancel();
            });
        const auto start = std::chrono::steady_clock::now();
        try
        {
            aggregator.execute(BlockView::of(input), context);
            ADD_FAILURE() << "query finished before the cancellation at "
                          << std::chrono::duration<double, std::milli>(delay).count() << " ms";
        }
        catch (const Exception& e)
        {
            EXPECT_EQ(e.code(), ErrorCode::kQueryCancelled);
        }
        canceller.join();
        const auto elapsed = std::chrono::steady_clock::now() - start;
        EXPECT_LT(elapsed, std::chrono::seconds(5));
        EXPECT_EQ(context.memory().usedBytes(), 0u);
    }
}

}  // namespace
}  // namespace granary
