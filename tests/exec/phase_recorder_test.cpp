#include "engine/exec/phase_recorder.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <stdexcept>

#include "engine/exec/query_context.h"

namespace granary
{
namespace
{

constexpr double kMillisecond = 1e-3;
/// Slack for a spin that ends on the first clock reading past its target.
constexpr double kSpinSlackSeconds = 0.5e-3;

/// Burns `seconds` of the calling thread's CPU time.
void spinFor(double seconds)
{
    const int64_t until = threadCpuNanoseconds() + static_cast<int64_t>(seconds * 1e9);
    while (threadCpuNanoseconds() < until)
    {
    }
}

/// Writes one byte per 4 KiB page of a fresh anonymous mapping: each write is a page fault.
void touchFreshPages(size_t bytes)
{
    void* mapping =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED)
    {
        throw std::runtime_error("mmap failed");
    }
    auto* bytes_of = static_cast<volatile char*>(mapping);
    for (size_t offset = 0; offset < bytes; offset += 4096)
    {
        bytes_of[offset] = 1;
    }
    munmap(mapping, bytes);
}

TEST(PhaseRecorder, MedianAndSpanComeFromTheTasksChains)
{
    PhaseStats stats;
    {
        PhaseRecorder recorder(stats);
        for (double ms : {4.0, 1.0, 5.0, 3.0, 2.0})
        {
            TaskTimer timer(recorder);
            spinFor(ms * kMillisecond);
        }
    }
    ASSERT_EQ(stats.tasks, 5u);
    ASSERT_EQ(stats.task_samples.size(), 5u);
    EXPECT_GE(stats.span_seconds, 5 * kMillisecond);
    EXPECT_LT(stats.span_seconds, 5 * kMillisecond + kSpinSlackSeconds);
    EXPECT_GE(stats.medianTaskSeconds(), 3 * kMillisecond);
    EXPECT_LT(stats.medianTaskSeconds(), 3 * kMillisecond + kSpinSlackSeconds);
    EXPECT_GE(stats.work_seconds, 15 * kMillisecond);
}

TEST(PhaseRecorder, TellsTasksThatFaultedFromTheRest)
{
    auto run_tasks = [](PhaseStats& stats)
    {
        PhaseRecorder recorder(stats);
        {
            TaskTimer timer(recorder);
            spinFor(2 * kMillisecond);
        }
        {
            TaskTimer timer(recorder);
            touchFreshPages(1 << 20);
            spinFor(6 * kMillisecond);
        }
        {
            TaskTimer timer(recorder);
            spinFor(kMillisecond);
        }
    };
    // A first pass faults in what the tasks' code and the recorder touch (code pages, the
    // samples' memory, a sanitizer's shadow of them), so that only the fresh pages fault below.
    PhaseStats warm_up;
    run_tasks(warm_up);
    PhaseStats stats;
    run_tasks(stats);
    EXPECT_EQ(stats.faultingTasks(), 1u);
    EXPECT_GE(stats.span_seconds, 6 * kMillisecond);
    EXPECT_GE(stats.longestFaultlessTaskSeconds(), 2 * kMillisecond);
    EXPECT_LT(stats.longestFaultlessTaskSeconds(), 2 * kMillisecond + kSpinSlackSeconds);
}

TEST(PhaseRecorder, RecordersOfOnePhaseAddTheirSamples)
{
    PhaseStats stats;
    for (int recorders = 0; recorders < 2; ++recorders)
    {
        PhaseRecorder recorder(stats);
        TaskTimer timer(recorder);
        spinFor(kMillisecond);
    }
    EXPECT_EQ(stats.tasks, 2u);
    EXPECT_EQ(stats.task_samples.size(), 2u);
}

TEST(PhaseRecorder, NestedTasksKeepTheirFaultsOutOfTheParents)
{
#if GRANARY_TSAN_EXECUTOR
    GTEST_SKIP() << "the ThreadSanitizer executor starts new threads for every region, whose "
                    "tasks fault in their fresh stacks";
#endif
    QueryContext context(4);
    {
        // The arena's threads start and fault in their stacks here, outside the tasks below.
        PhaseRecorder warm_up(context.stats().phase(QueryPhase::kPartial));
        context.runTasks(
            warm_up, 8,
            [&](size_t, TaskTimer& parent)
            { context.runNestedTasks(warm_up, parent, 2, [](size_t) { spinFor(kMillisecond); }); });
    }
    PhaseStats& stats = context.stats().phase(QueryPhase::kMerge);
    {
        PhaseRecorder recorder(stats);
        context.runTasks(recorder, 1,
                         [&](size_t, TaskTimer& parent)
                         {
                             spinFor(kMillisecond);
                             context.runNestedTasks(recorder, parent, 2,
                                                    [](size_t child)
                                                    {
                                                        if (child == 0)
                                                        {
                                                            touchFreshPages(1 << 20);
                                                        }
                                                        spinFor(3 * kMillisecond);
                                                    });
                         });
    }
    ASSERT_EQ(stats.task_samples.size(), 3u);
    EXPECT_EQ(stats.faultingTasks(), 1u);
    // The parent's chain is its own millisecond plus its longest child's three.
    EXPECT_GE(stats.span_seconds, 4 * kMillisecond);
    EXPECT_GE(stats.longestFaultlessTaskSeconds(), 4 * kMillisecond);
}

}  // namespace
}  // namespace granary
