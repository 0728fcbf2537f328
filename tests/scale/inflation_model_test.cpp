#include "programs/scale/inflation_model.h"

#include <gtest/gtest.h>

#include "phase_indices.h"

namespace granary::scale
{
namespace
{

/// I(16) = 1.25, I(64) = 1.5.
InflationCurve sampleCurve()
{
    return {{{16, 1.25}, {64, 1.5}}};
}

ScalingRow rowAt(size_t threads)
{
    ScalingRow row;
    row.query = "Q0";
    row.threads = threads;
    row.best_seconds = 1;
    row.medians.work_seconds = 1;  // Medians recorded (not an old CSV's row).
    return row;
}

/// A two-phase query: at 1 thread partial and merge have median work 8 s and 0.4 s, plan and
/// result median spans 10 and 20 ms, 5 ms outside phases; at 64 threads (the most) the median
/// spans are 50 ms and 100 ms. The best runs' figures differ, and so does the 16-thread row, to
/// show that neither is used.
std::vector<ScalingRow> twoPhaseRows()
{
    ScalingRow one = rowAt(1);
    one.medians.phase_work_seconds[kPartial] = 8;
    one.medians.phase_work_seconds[kMerge] = 0.4;
    one.medians.phase_span_seconds[kPlan] = 0.01;
    one.medians.phase_span_seconds[kResult] = 0.02;
    one.phases[kPartial].work_seconds = 9;
    one.outside_phases_seconds = 0.005;
    ScalingRow sixteen = rowAt(16);
    sixteen.medians.phase_span_seconds[kPartial] = 0.5;
    ScalingRow most = rowAt(64);
    most.medians.phase_span_seconds[kPartial] = 0.05;
    most.medians.phase_span_seconds[kMerge] = 0.1;
    most.phases[kPartial].span_seconds = 0.07;
    return {one, sixteen, most};
}

TEST(InflationModel, TakesWorkFromTheFewestThreadsAndSpanFromTheMost)
{
    const InflationModel model = inflationModelOf(twoPhaseRows(), sampleCurve());
    EXPECT_DOUBLE_EQ(model.serial_seconds, 0.035);
    ASSERT_EQ(model.phases.size(), 4u);
    EXPECT_EQ(model.phases[0].phase, QueryPhase::kPartial);
    EXPECT_EQ(model.phases[0].one_thread_work_seconds, 8);
    EXPECT_EQ(model.phases[0].span_seconds, 0.05);
    EXPECT_EQ(model.phases[2].phase, QueryPhase::kMerge);
    EXPECT_EQ(model.phases[2].one_thread_work_seconds, 0.4);
    EXPECT_EQ(model.phases[2].span_seconds, 0.1);
}

TEST(InflationModel, BrentsBoundWithInflatedWork)
{
    const InflationModel model = inflationModelOf(twoPhaseRows(), sampleCurve());
    // T(1) = 0.035 + 8 + 0.4.
    EXPECT_NEAR(model.time(1), 8.435, 1e-12);
    // T(16), I = 1.25: 0.035 + (10 - 0.05)/16 + 0.05 + (0.5 - 0.1)/16 + 0.1.
    EXPECT_NEAR(model.time(16), 0.831875, 1e-12);
    // T(32), I = 1.375: 0.035 + (11 - 0.05)/32 + 0.05 + (0.55 - 0.1)/32 + 0.1.
    EXPECT_NEAR(model.time(32), 0.54125, 1e-12);
    // T(192), I held at 1.5: 0.035 + (12 - 0.05)/192 + 0.05 + (0.6 - 0.1)/192 + 0.1.
    EXPECT_NEAR(model.time(192), 0.24984375, 1e-12);
    EXPECT_NEAR(model.speedup(16), 8.435 / 0.831875, 1e-9);
}

TEST(InflationModel, DividesTheLowestRowsWorkByItsInflation)
{
    // Lowest row at 2 threads, I(2) = 1 + 0.25 * (1/4) = 1.0625: 8.5 s of work is 8 s on 1.
    ScalingRow two = rowAt(2);
    two.medians.phase_work_seconds[kPartial] = 8.5;
    const InflationModel model =
        inflationModelOf(std::vector<ScalingRow>{two, rowAt(64)}, sampleCurve());
    EXPECT_DOUBLE_EQ(model.phases[0].one_thread_work_seconds, 8);
}

TEST(InflationModel, SpanLongerThanTheInflatedWorkIsTheSpan)
{
    // Merge: no work at 1 thread (one partial), 0.1 s span at 64: it costs its span anywhere.
    ScalingRow one = rowAt(1);
    ScalingRow most = rowAt(64);
    most.medians.phase_span_seconds[kMerge] = 0.1;
    const InflationModel model =
        inflationModelOf(std::vector<ScalingRow>{one, most}, sampleCurve());
    EXPECT_DOUBLE_EQ(model.time(1), 0.1);
    EXPECT_DOUBLE_EQ(model.time(480), 0.1);
}

TEST(InflationModel, ARowWithoutMediansUsesItsBestRun)
{
    ScalingRow one = rowAt(1);
    one.medians = {};
    one.work_seconds = 2;
    one.phases[kPartial].work_seconds = 2;
    ScalingRow most = rowAt(64);
    most.medians = {};
    most.work_seconds = 2.5;
    most.phases[kPartial].span_seconds = 0.25;
    const InflationModel model =
        inflationModelOf(std::vector<ScalingRow>{one, most}, sampleCurve());
    EXPECT_EQ(model.phases[0].one_thread_work_seconds, 2);
    EXPECT_EQ(model.phases[0].span_seconds, 0.25);
}

}  // namespace
}  // namespace granary::scale
