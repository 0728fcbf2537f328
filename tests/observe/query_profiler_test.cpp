#include "engine/observe/query_profiler.h"

#include <gtest/gtest.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "engine/observe/profiler_thread_scope.h"

namespace granary
{

/// Spins until the calling thread has used `cpu_time` of CPU. External, and neither inlined
/// nor cloned (a clone is a local symbol), so the dynamic symbol table names it.
[[gnu::noipa]] void profilerTestBurnCpu(std::chrono::nanoseconds cpu_time)
{
    const auto now = []
    {
        timespec time{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
        return std::chrono::seconds(time.tv_sec) + std::chrono::nanoseconds(time.tv_nsec);
    };
    const auto end = now() + cpu_time;
    volatile uint64_t sink = 0;
    while (now() < end)
    {
        for (int i = 0; i < 1000; ++i)
        {
            sink = sink + i;
        }
    }
}

namespace
{

/// The issue's scale: a query run by 256 worker threads.
constexpr size_t kWorkerThreads = 256;
/// CPU time each worker burns: a few scheduler ticks, the granularity of CPU timers.
constexpr auto kWorkerCpuTime = std::chrono::milliseconds(10);
/// Bursts of kWorkerCpuTime after which a lazily kept timer must have stopped.
constexpr int kStopAttempts = 20;
/// A short period, so few milliseconds of CPU yield samples.
constexpr auto kTestPeriod = std::chrono::milliseconds(1);
constexpr int64_t kTestPeriodNs = std::chrono::nanoseconds(kTestPeriod).count();

template <typename TimerPolicy>
void runWorkers(QueryProfiler& query, size_t thread_count)
{
    std::vector<std::thread> threads;
    for (size_t t = 0; t < thread_count; ++t)
    {
        threads.emplace_back(
            [&query]
            {
                BasicProfilerThreadScope<TimerPolicy> scope(query);
                profilerTestBurnCpu(kWorkerCpuTime);
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
}

bool anyStackNames(const std::vector<FoldedStack>& stacks, const std::string& function)
{
    for (const FoldedStack& stack : stacks)
    {
        if (stack.frames.find(function) != std::string::npos)
        {
            return true;
        }
    }
    return false;
}

template <typename TimerPolicy>
class QueryProfilerTimerTest : public ::testing::Test
{
};

using TimerPolicies = ::testing::Types<LazyPerThreadTimer, PerThreadTimer, PerQueryTimer>;
TYPED_TEST_SUITE(QueryProfilerTimerTest, TimerPolicies);

TYPED_TEST(QueryProfilerTimerTest, SamplesEveryWorkerThreadOfAQuery)
{
    QueryProfiler query(kTestPeriod);
    runWorkers<TypeParam>(query, kWorkerThreads);
    // CPU timers fire on the scheduler tick (4 ms at HZ=250), so an idle machine takes ~2
    // samples per thread; a loaded one far fewer. One per 8 threads still proves the workers
    // are sampled, while a broken timer or handler yields none.
    EXPECT_GE(query.sampleCount(), kWorkerThreads / 8);
    const std::vector<FoldedStack> stacks = query.foldedStacks();
    ASSERT_FALSE(stacks.empty());
    EXPECT_TRUE(anyStackNames(stacks, "profilerTestBurnCpu"));
    uint64_t total = 0;
    for (const FoldedStack& stack : stacks)
    {
        total += stack.count;
    }
    EXPECT_EQ(total, query.sampleCount());
}

TYPED_TEST(QueryProfilerTimerTest, NoSamplesOutsideAThreadScope)
{
    QueryProfiler query(kTestPeriod);
    std::thread(
        [&query]
        {
            {
                BasicProfilerThreadScope<TypeParam> scope(query);
            }
            profilerTestBurnCpu(kWorkerCpuTime);
        })
        .join();
    EXPECT_EQ(query.sampleCount(), 0u);
}

TEST(QueryProfiler, LazyTimerStopsAtTheFirstSignalAfterTheTask)
{
    QueryProfiler query(kTestPeriod);
    std::thread(
        [&query]
        {
            ProfilerThreadState& thread = ProfilerThreadState::current();
            {
                ProfilerThreadScope scope(query);
                EXPECT_EQ(thread.running_period_ns.load(), kTestPeriodNs);
            }
            EXPECT_EQ(thread.running_period_ns.load(), kTestPeriodNs);
            // The next tick that finds the timer expired stops it; a loaded machine may need more.
            for (int attempt = 0; attempt < kStopAttempts && thread.running_period_ns.load() != 0;
                 ++attempt)
            {
                profilerTestBurnCpu(kWorkerCpuTime);
            }
            EXPECT_EQ(thread.running_period_ns.load(), 0);
        })
        .join();
}

TEST(QueryProfiler, ThreadKeepsOneTimerAcrossQueries)
{
    QueryProfiler first(kTestPeriod);
    QueryProfiler second(kTestPeriod);
    std::optional<timer_t> first_timer;
    {
        ProfilerThreadScope scope(first);
        first_timer = ProfilerThreadState::current().thread_timer;
    }
    {
        ProfilerThreadScope scope(second);
        ASSERT_TRUE(first_timer.has_value());
        EXPECT_EQ(ProfilerThreadState::current().thread_timer, first_timer);
    }
}

TEST(QueryProfiler, WritesFoldedStacksForFlameGraphTools)
{
    QueryProfiler query(kTestPeriod);
    runWorkers<PerThreadTimer>(query, 4);
    const auto path = std::filesystem::temp_directory_path() /
                      ("granary_profile_" + std::to_string(getpid()) + ".folded");
    query.writeFoldedStacks(path);

    std::ifstream in(path);
    const std::regex folded_line(R"(^\S.*[^;] [0-9]+$)");
    std::string line;
    uint64_t total = 0;
    while (std::getline(in, line))
    {
        EXPECT_TRUE(std::regex_match(line, folded_line)) << line;
        total += std::stoull(line.substr(line.rfind(' ') + 1));
    }
    EXPECT_EQ(total, query.sampleCount());
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace granary
