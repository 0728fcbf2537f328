// GROUP BY queries with far more threads than cores (64 and 256 on a 2-core machine), with
// and without forced two-level tables, against the naive evaluator.

#include <gtest/gtest.h>

#include "engine/sql/parser.h"
#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

const std::vector<std::string> kQueries = {
    "SELECT RegionID, count(DISTINCT UserID) AS u, sum(ResolutionWidth), count(*) FROM visits "
    "GROUP BY RegionID ORDER BY u DESC, RegionID LIMIT 20",
    "SELECT SearchPhrase, count(*) AS c FROM visits WHERE SearchPhrase <> '' "
    "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 50",
    "SELECT UserID, SearchPhrase, count(*) FROM visits GROUP BY UserID, SearchPhrase "
    "ORDER BY count(*) DESC LIMIT 10",
    "SELECT WatchID, ClientIP, count(*) AS c, avg(ResolutionWidth) FROM visits "
    "GROUP BY WatchID, ClientIP ORDER BY c DESC LIMIT 10",
    "SELECT URL, count(*) AS c, min(Title) FROM visits GROUP BY URL ORDER BY c DESC LIMIT 10",
    "SELECT ClientIP, ClientIP - 1, count(*) AS c FROM visits GROUP BY ClientIP, ClientIP - 1 "
    "ORDER BY c DESC LIMIT 10",
    "SELECT AdvEngineID, count(*) FROM visits GROUP BY AdvEngineID",
    "SELECT count(DISTINCT SearchPhrase), count(DISTINCT UserID), count(*) FROM visits",
};

/// The oracle's answers, per query of kQueries.
const std::vector<NaiveResult>& answers()
{
    static const std::vector<NaiveResult> shared = []
    {
        std::vector<NaiveResult> built;
        for (const std::string& query : kQueries)
        {
            built.push_back(evaluateNaively(sql::parseSelect(query), sharedVisits().table));
        }
        return built;
    }();
    return shared;
}

class ThreadCount : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(ThreadCount, GroupByMatchesNaiveEvaluator)
{
    const auto [threads, force_two_level] = GetParam();
    const QueryOptions options = threadOptions(threads, force_two_level);
    // The string GROUP BY really runs on many partial tables (two-level ones when forced).
    // Round-robin morsels: with first-come scheduling one busy worker may take them all.
    QueryOptions round_robin = options;
    round_robin.settings["deterministic_morsels"] = "1";
    const QueryStats stats = sharedVisits().session->execute(kQueries[1], round_robin).stats;
    EXPECT_GT(stats.partials, 1u);
    if (force_two_level)
    {
        EXPECT_GT(stats.two_level_partials, 0u);
    }
    for (size_t q = 0; q < kQueries.size(); ++q)
    {
        SCOPED_TRACE(kQueries[q]);
        EXPECT_EQ(differenceForQuery(*sharedVisits().session, answers()[q], kQueries[q], options),
                  "");
    }
}

INSTANTIATE_TEST_SUITE_P(
    Oversubscribed, ThreadCount,
    ::testing::Combine(::testing::Values(size_t{64}, size_t{256}), ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
    { return threadOptionsName(std::get<0>(info.param), std::get<1>(info.param)); });

}  // namespace
}  // namespace granary::oracle
