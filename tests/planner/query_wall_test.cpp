// Every millisecond of a statement falls in a phase: the plan before the first task, the
// parallel phases, the result after the last task, and whatever lies between phases, which
// QueryStats names. Checked through Session::execute at 1, 2 and 64 threads.

#include <gtest/gtest.h>

#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

constexpr size_t kRows = 300'000;
constexpr size_t kKeys = 50'000;

std::shared_ptr<Database> keyedTable()
{
    auto database = Database::openInMemory();
    Session(database).execute("CREATE TABLE t (k UInt64, v Int64) ORDER BY k");
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt64)});
    block.columns.push_back({"v", Column(TypeId::Int64)});
    for (size_t row = 0; row < kRows; ++row)
    {
        block.columns[0].column.append(static_cast<uint64_t>(row * 7919 % kKeys));
        block.columns[1].column.append(static_cast<int64_t>(row % 1000));
    }
    database->insert("t", {block});
    return database;
}

class QueryWall : public ::testing::TestWithParam<size_t>
{
};

TEST_P(QueryWall, PlanPhasesResultAndGapsMakeTheStatementsTime)
{
    Session session(keyedTable());
    QueryOptions options;
    options.threads = GetParam();
    const QueryResult result = session.execute(
        "SELECT k, sum(v) AS s FROM t GROUP BY k ORDER BY s DESC, k LIMIT 5", options);
    const QueryStats& stats = result.stats;
    ASSERT_GT(stats.query_seconds, 0);
    EXPECT_LE(stats.query_seconds, result.elapsed_seconds);
    const double plan = stats.phase(QueryPhase::kPlan).wall_seconds;
    const double result_phase = stats.phase(QueryPhase::kResult).wall_seconds;
    EXPECT_GT(plan, 0);
    EXPECT_GT(result_phase, 0);
    EXPECT_GE(stats.outside_phases_seconds, 0);
    const PhaseStats& partial = stats.phase(QueryPhase::kPartial);
    // query = plan + (the parallel phases' intervals, united) + gaps + result, and the
    // union is at most the sum of the parallel phases' walls.
    double parallel_walls = 0;
    for (QueryPhase phase :
         {QueryPhase::kPartial, QueryPhase::kConvert, QueryPhase::kMerge, QueryPhase::kFinalize})
    {
        parallel_walls += stats.phase(phase).wall_seconds;
    }
    ASSERT_FALSE(partial.intervals.empty());
    EXPECT_LE(plan + result_phase + stats.outside_phases_seconds, stats.query_seconds + 1e-9);
    EXPECT_GE(plan + result_phase + stats.outside_phases_seconds + parallel_walls + 1e-6,
              stats.query_seconds);

    const TaskSample* longest = partial.longestTask();
    ASSERT_NE(longest, nullptr);
    EXPECT_GT(longest->facts.rows, 0u);
    EXPECT_GT(longest->facts.groups, 0u);
    EXPECT_LE(longest->facts.groups, kKeys);
    EXPECT_NE(stats.toString().find("outside every phase"), std::string::npos);
}

TEST_P(QueryWall, AStatementWithoutTasksIsAllPlan)
{
    Session session(keyedTable());
    QueryOptions options;
    options.threads = GetParam();
    const QueryStats stats = session.execute("SELECT 1 + 1", options).stats;
    EXPECT_GT(stats.query_seconds, 0);
    EXPECT_DOUBLE_EQ(stats.phase(QueryPhase::kPlan).wall_seconds, stats.query_seconds);
    EXPECT_EQ(stats.outside_phases_seconds, 0);
}

TEST_P(QueryWall, PhasesRunOneAfterAnotherSoTheirWallsFitInTheStatement)
{
    // A keyless count(DISTINCT) of mostly new values: its sets merge in phases of their own
    // (distinct_value_buckets.cpp), once recorded inside the fold's merge recorder as well,
    // which counted that wall twice.
    Session session(keyedTable());
    QueryOptions options;
    options.threads = GetParam();
    for (const char* query : {"SELECT count(DISTINCT k * 1000 + v), count(*) FROM t",
                              "SELECT k, sum(v) FROM t GROUP BY k ORDER BY k LIMIT 3"})
    {
        SCOPED_TRACE(query);
        const QueryStats stats = session.execute(query, options).stats;
        double walls = 0;
        for (QueryPhase phase : {QueryPhase::kPlan, QueryPhase::kPartial, QueryPhase::kConvert,
                                 QueryPhase::kMerge, QueryPhase::kFinalize, QueryPhase::kResult})
        {
            walls += stats.phase(phase).wall_seconds;
        }
        EXPECT_LE(walls, stats.query_seconds + 1e-6) << stats.toString();
    }
}

INSTANTIATE_TEST_SUITE_P(Threads, QueryWall, ::testing::Values(1, 2, 64));

}  // namespace
}  // namespace granary
