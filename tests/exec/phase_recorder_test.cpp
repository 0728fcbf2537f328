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

TEST(PhaseRecorder, TheLongestTaskKeepsItsIndexFactsAndFaults)
{
    QueryContext context(2);
    PhaseStats& stats = context.stats().phase(QueryPhase::kMerge);
    {
        PhaseRecorder recorder(stats);
        context.runTasks(recorder, 5,
                         [&](size_t i, TaskTimer& timer)
                         {
                             if (i == 3)
                             {
                                 touchFreshPages(1 << 20);
                             }
                             spinFor((i == 3 ? 4 : 1) * kMillisecond);
                             timer.facts() = {i * 10, i * 100, i};
                         });
    }
    const TaskSample* longest = stats.longestTask();
    ASSERT_NE(longest, nullptr);
    EXPECT_EQ(longest->index, 3u);
    EXPECT_EQ(longest->facts.rows, 30u);
    EXPECT_EQ(longest->facts.groups, 300u);
    EXPECT_EQ(longest->facts.growths, 3u);
    EXPECT_GE(longest->page_faults, 200u);  // 256 fresh 4 KiB pages
    EXPECT_GE(longest->own_seconds, 4 * kMillisecond);
    EXPECT_EQ(PhaseStats{}.longestTask(), nullptr);
    const std::string text = context.stats().longestTasksText();
    EXPECT_NE(text.find("longest merge task: #3"), std::string::npos) << text;
}

TEST(QueryStats, TheStatementsWallSplitsIntoPlanPhasesResultAndGaps)
{
    QueryStats stats;
    stats.phase(QueryPhase::kPartial).intervals = {{10, 20}, {15, 25}};  // overlapping recorders
    stats.phase(QueryPhase::kMerge).intervals = {{30, 40}};
    stats.accountQueryWall(0, 50);
    EXPECT_DOUBLE_EQ(stats.query_seconds, 50e-9);
    EXPECT_DOUBLE_EQ(stats.phase(QueryPhase::kPlan).wall_seconds, 10e-9);
    EXPECT_DOUBLE_EQ(stats.phase(QueryPhase::kPlan).span_seconds, 10e-9);
    EXPECT_DOUBLE_EQ(stats.phase(QueryPhase::kResult).wall_seconds, 10e-9);
    EXPECT_DOUBLE_EQ(stats.phase(QueryPhase::kResult).work_seconds, 10e-9);
    // Covered: [10, 25) and [30, 40); between the first start and the last end, 25..30.
    EXPECT_DOUBLE_EQ(stats.outside_phases_seconds, 5e-9);

    QueryStats serial;
    serial.accountQueryWall(100, 170);
    EXPECT_DOUBLE_EQ(serial.phase(QueryPhase::kPlan).wall_seconds, 70e-9);
    EXPECT_DOUBLE_EQ(serial.phase(QueryPhase::kResult).wall_seconds, 0);
    EXPECT_DOUBLE_EQ(serial.outside_phases_seconds, 0);
}

TEST(QueryStats, RecordersLeaveTheirWallIntervals)
{
    PhaseStats stats;
    const int64_t before = wallNanoseconds();
    {
        PhaseRecorder first(stats);
        spinFor(kMillisecond);
    }
    {
        PhaseRecorder second(stats);
    }
    ASSERT_EQ(stats.intervals.size(), 2u);
    EXPECT_GE(stats.intervals[0].start_ns, before);
    EXPECT_GE(stats.intervals[0].end_ns - stats.intervals[0].start_ns, 1'000'000);
    EXPECT_LE(stats.intervals[0].end_ns, stats.intervals[1].start_ns);
    EXPECT_LE(stats.intervals[1].end_ns, wallNanoseconds());
}

}  // namespace
}  // namespace granary
