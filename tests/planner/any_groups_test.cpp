// GROUP BY ... LIMIT without ORDER BY or HAVING aggregates only the first LIMIT + OFFSET keys
// it meets (AnyGroupsFilter): every row returned must still be one of the full GROUP BY's rows,
// aggregates exact, and as many rows as the full result would give. Against the naive
// evaluator with the setting on and off, at 1 to 256 threads, one- and two-level, for every
// kind of key and the count(DISTINCT) plans.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

struct AnyGroupsQuery
{
    std::string sql;
    /// Whether the full result has more groups than the query keeps, so rows are dropped.
    bool drops_rows;
};

const std::vector<AnyGroupsQuery> kQueries = {
    // ClickBench Q18's shape: an integer and a string key.
    {"SELECT UserID, SearchPhrase, count(*) FROM visits GROUP BY UserID, SearchPhrase LIMIT 10",
     true},
    // OFFSET: LIMIT + OFFSET keys are admitted.
    {"SELECT ClientIP, sum(ResolutionWidth), avg(ResolutionWidth), min(URL), max(EventTime) "
     "FROM visits GROUP BY ClientIP LIMIT 25 OFFSET 5",
     true},
    // The by-value count(DISTINCT) plan and the per-key sets, behind the filter.
    {"SELECT RegionID, count(DISTINCT UserID) FROM visits GROUP BY RegionID LIMIT 7", true},
    {"SELECT SearchPhrase, count(DISTINCT UserID), count(*) FROM visits "
     "WHERE SearchPhrase <> '' GROUP BY SearchPhrase LIMIT 10",
     true},
    // Small integer and date keys, a float and a string expression.
    {"SELECT EventDate, AdvEngineID, count(*) FROM visits GROUP BY EventDate, AdvEngineID "
     "LIMIT 3",
     true},
    {"SELECT ResolutionWidth / 7 AS f, count(*), sum(IsRefresh) FROM visits GROUP BY f LIMIT 3",
     true},
    {"SELECT length(URL) AS n, Referer, count(*) FROM visits GROUP BY n, Referer LIMIT 40", true},
    // DISTINCT is a GROUP BY of every item.
    {"SELECT DISTINCT URL FROM visits LIMIT 20", true},
    // More room than groups: every group, nothing dropped.
    {"SELECT AdvEngineID, count(*) FROM visits GROUP BY AdvEngineID LIMIT 8000", false},
    // HAVING and ORDER BY must see every group: no filter.
    {"SELECT UserID, count(*) AS c FROM visits GROUP BY UserID HAVING count(*) > 1 LIMIT 10",
     false},
    {"SELECT UserID, count(*) AS c FROM visits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 10",
     false},
};

QueryOptions withFilter(size_t threads, bool two_level, bool filter)
{
    QueryOptions options = threadOptions(threads, two_level);
    options.settings["group_by_limit_to_any_groups"] = filter ? "1" : "0";
    return options;
}

class AnyGroups : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(AnyGroups, RowsAreTheFullGroupByRowsOnAndOff)
{
    const auto [threads, two_level] = GetParam();
    const VisitsFixture& visits = sharedVisits();
    for (const AnyGroupsQuery& query : kQueries)
    {
        for (const bool filter : {true, false})
        {
            SCOPED_TRACE(query.sql + (filter ? " (filter on)" : " (filter off)"));
            const QueryOptions options = withFilter(threads, two_level, filter);
            EXPECT_EQ(differenceForQuery(*visits.session, visits.table, query.sql, options), "");
            const QueryStats stats = visits.session->execute(query.sql, options).stats;
            EXPECT_EQ(stats.rows_outside_any_groups > 0, filter && query.drops_rows);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Threads, AnyGroups,
    ::testing::Combine(::testing::Values(size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{256}),
                       ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
    { return threadOptionsName(std::get<0>(info.param), std::get<1>(info.param)); });

TEST(AnyGroups, LimitsAboveTheFilterBoundAggregateEveryGroup)
{
    const VisitsFixture& visits = sharedVisits();
    const std::string sql = "SELECT UserID, count(*) FROM visits GROUP BY UserID LIMIT 8193";
    EXPECT_EQ(differenceForQuery(*visits.session, visits.table, sql, withFilter(2, false, true)),
              "");
    EXPECT_EQ(
        visits.session->execute(sql, withFilter(2, false, true)).stats.rows_outside_any_groups, 0u);
}

}  // namespace
}  // namespace granary::oracle
