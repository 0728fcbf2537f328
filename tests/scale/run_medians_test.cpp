#include "programs/scale/run_medians.h"

#include <gtest/gtest.h>

#include <optional>

#include "engine/common/exception.h"
#include "programs/scale/scaling_study.h"

namespace granary::scale
{
namespace
{

TEST(RunMedians, MiddleValueOrMeanOfTheTwoMiddleOnes)
{
    EXPECT_EQ(median({}), 0);
    EXPECT_EQ(median({7}), 7);
    EXPECT_EQ(median({5, 1, 3}), 3);
    EXPECT_EQ(median({4, 1, 10, 2}), 3);  // (2 + 4) / 2
}

/// A run whose partial phase has `work` of work and `span` of span, and a merge of 1 s work
/// and 0.25 s span, taking `seconds`.
QueryRun runOf(double seconds, double work, double span)
{
    QueryRun run;
    run.seconds = seconds;
    run.stats.phase(QueryPhase::kPartial).work_seconds = work;
    run.stats.phase(QueryPhase::kPartial).span_seconds = span;
    run.stats.phase(QueryPhase::kMerge).work_seconds = 1;
    run.stats.phase(QueryPhase::kMerge).span_seconds = 0.25;
    return run;
}

/// One query at one thread count, a run per entry of `runs`; an empty optional is a failure.
ScalingRow studyOf(const std::vector<std::optional<QueryRun>>& runs)
{
    size_t call = 0;
    const QueryRunner runner = [&](const std::string&, size_t) -> QueryRun
    {
        const std::optional<QueryRun>& run = runs[call++];
        if (!run)
        {
            throw Exception(ErrorCode::kMemoryLimitExceeded, "failed run");
        }
        return *run;
    };
    StudyOptions options;
    options.threads = {4};
    options.runs = runs.size();
    options.hardware_threads = 4;
    const std::vector<ScalingRow> rows = runScalingStudy({{"Q0", "x"}}, options, runner);
    EXPECT_EQ(rows.size(), 1u);
    return rows.front();
}

TEST(RunMedians, OddCountOfSuccessfulRunsAfterAFailure)
{
    // The best run (0.5 s) has the largest span; the medians come from the three that worked.
    const ScalingRow row =
        studyOf({runOf(0.9, 8, 1), std::nullopt, runOf(0.5, 7, 3), runOf(0.7, 9, 2)});
    EXPECT_FALSE(row.failed());
    EXPECT_EQ(row.best_seconds, 0.5);
    EXPECT_EQ(row.span_seconds, 3.25);
    EXPECT_EQ(row.medians.phase_work_seconds[static_cast<size_t>(QueryPhase::kPartial)], 8);
    EXPECT_EQ(row.medians.phase_span_seconds[static_cast<size_t>(QueryPhase::kPartial)], 2);
    EXPECT_EQ(row.medians.phase_span_seconds[static_cast<size_t>(QueryPhase::kMerge)], 0.25);
    EXPECT_EQ(row.medians.work_seconds, 9);     // totals 9, 8, 10
    EXPECT_EQ(row.medians.span_seconds, 2.25);  // totals 1.25, 3.25, 2.25
    EXPECT_EQ(row.workPerSpan(), 8.0 / 3.25);
    EXPECT_EQ(row.workPerMedianSpan(), 4);
}

TEST(RunMedians, EvenCountOfSuccessfulRunsAfterAFailure)
{
    const ScalingRow row = studyOf({runOf(0.9, 8, 1), runOf(0.5, 6, 3), std::nullopt});
    EXPECT_EQ(row.best_seconds, 0.5);
    EXPECT_EQ(row.medians.phase_work_seconds[static_cast<size_t>(QueryPhase::kPartial)], 7);
    EXPECT_EQ(row.medians.phase_span_seconds[static_cast<size_t>(QueryPhase::kPartial)], 2);
    EXPECT_EQ(row.medians.work_seconds, 8);     // totals 9 and 7
    EXPECT_EQ(row.medians.span_seconds, 2.25);  // totals 1.25 and 3.25
}

TEST(RunMedians, AFailedRowHasNoMedians)
{
    const ScalingRow row = studyOf({std::nullopt, std::nullopt});
    EXPECT_TRUE(row.failed());
    EXPECT_EQ(row.medians.work_seconds, 0);
    EXPECT_EQ(row.workPerMedianSpan(), 0);
}

}  // namespace
}  // namespace granary::scale
