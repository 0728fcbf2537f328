// ORDER BY ... LIMIT over a GROUP BY finalizes only the groups that can make the cut (the
// aggregator's TopGroups): the answers still match the naive evaluator's, with HAVING and
// ordering expressions (which must see every group) left to the full result.

#include <gtest/gtest.h>

#include "engine/sql/parser.h"
#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

/// Whether groups are left unfinalized: only when the order is by result columns and nothing
/// filters groups before it, and then where a bucket holds more groups than LIMIT + OFFSET.
enum class Finalized
{
    kFewer,
    kAll,
    kEither,  ///< Two-level results of ~1,500 groups leave ~6 per bucket, below the limit.
};

struct TopQuery
{
    std::string sql;
    Finalized finalized;
};

const std::vector<TopQuery> kQueries = {
    {"SELECT UserID, count(*) AS c FROM visits GROUP BY UserID ORDER BY c DESC LIMIT 10",
     Finalized::kFewer},
    {"SELECT SearchPhrase, count(*) AS c, min(URL) FROM visits GROUP BY SearchPhrase "
     "ORDER BY c, SearchPhrase DESC LIMIT 25 OFFSET 5",
     Finalized::kEither},
    {"SELECT WatchID, ClientIP, count(*) AS c, sum(IsRefresh), avg(ResolutionWidth) FROM visits "
     "GROUP BY WatchID, ClientIP ORDER BY c DESC LIMIT 10",
     Finalized::kFewer},
    {"SELECT RegionID, URL, count(*) AS c FROM visits GROUP BY RegionID, URL "
     "ORDER BY c DESC, RegionID LIMIT 15",
     Finalized::kFewer},
    {"SELECT ClientIP, count(*) AS c FROM visits GROUP BY ClientIP ORDER BY ClientIP DESC LIMIT 7",
     Finalized::kFewer},
    {"SELECT UserID, count(*) AS c FROM visits GROUP BY UserID ORDER BY c DESC LIMIT 0",
     Finalized::kFewer},
    // Without ORDER BY only the first 10 keys are aggregated (any_groups_test.cpp): nothing
    // is left to drop at the finalize.
    {"SELECT UserID, SearchPhrase, count(*) FROM visits GROUP BY UserID, SearchPhrase LIMIT 10",
     Finalized::kAll},
    {"SELECT AdvEngineID, count(*) AS c FROM visits GROUP BY AdvEngineID ORDER BY c DESC "
     "LIMIT 100000",
     Finalized::kAll},
    // HAVING keeps the groups the top would drop: it must see all of them.
    {"SELECT UserID, count(*) AS c FROM visits GROUP BY UserID HAVING count(*) < 3 "
     "ORDER BY c DESC LIMIT 10",
     Finalized::kAll},
    {"SELECT UserID, count(*) AS c FROM visits GROUP BY UserID ORDER BY c + 0 DESC LIMIT 10",
     Finalized::kAll},
};

class TopGroupsQuery : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(TopGroupsQuery, MatchesNaiveEvaluator)
{
    const auto [threads, force_two_level] = GetParam();
    const QueryOptions options = threadOptions(threads, force_two_level);
    const VisitsFixture& visits = sharedVisits();
    for (const TopQuery& query : kQueries)
    {
        SCOPED_TRACE(query.sql);
        EXPECT_EQ(differenceForQuery(*visits.session, visits.table, query.sql, options), "");
        const QueryStats stats = visits.session->execute(query.sql, options).stats;
        if (query.finalized == Finalized::kFewer)
        {
            EXPECT_GT(stats.unfinalized_groups, 0u);
        }
        else if (query.finalized == Finalized::kAll)
        {
            EXPECT_EQ(stats.unfinalized_groups, 0u);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Threads, TopGroupsQuery,
    ::testing::Combine(::testing::Values(size_t{1}, size_t{2}, size_t{64}), ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
    { return threadOptionsName(std::get<0>(info.param), std::get<1>(info.param)); });

}  // namespace
}  // namespace granary::oracle
