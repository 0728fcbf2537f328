// GROUP BY keys that add nothing (constants beside other keys, expressions of other keys only)
// are left out of the grouping and computed after it: against the naive evaluator with the
// rewrites on and off, at 1 to 64 threads, one- and two-level, for every kind of key; and the
// same rows either way.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/planner/oracle_value.h"
#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

const std::vector<std::string> kQueries = {
    // ClickBench Q35's shape: a constant beside a string key.
    "SELECT 1, URL, count(*) AS c FROM visits GROUP BY 1, URL ORDER BY c DESC, URL LIMIT 10",
    // Q36's: expressions of an integer key.
    "SELECT ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3, count(*) AS c FROM visits "
    "GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3 ORDER BY c DESC, ClientIP "
    "LIMIT 10",
    // A string function of a string key, a constant string, a date key.
    "SELECT SearchPhrase, length(SearchPhrase) AS n, 'x' AS tag, EventDate, count(*) AS c "
    "FROM visits GROUP BY SearchPhrase, n, tag, EventDate ORDER BY c DESC, SearchPhrase, "
    "EventDate LIMIT 25",
    // Expressions of two keys, used in HAVING and ORDER BY.
    "SELECT RegionID, AdvEngineID, RegionID + AdvEngineID AS s, sum(ResolutionWidth) "
    "FROM visits GROUP BY RegionID, AdvEngineID, s HAVING s > 10 ORDER BY s DESC, RegionID, "
    "AdvEngineID LIMIT 30",
    // Not redundant: the expression's column is no key; a constant alone.
    "SELECT ClientIP - 1 AS d, count(*) AS c FROM visits GROUP BY d ORDER BY c DESC, d LIMIT 10",
    "SELECT 7 AS seven, count(*) FROM visits GROUP BY seven",
    // A key of keys that is not injective still groups as its base key does.
    "SELECT UserID, UserID % 3 AS r, count(*) AS c FROM visits GROUP BY UserID, r "
    "ORDER BY c DESC, UserID LIMIT 10",
};

QueryOptions withRewrites(size_t threads, bool two_level, bool rewrites)
{
    QueryOptions options = threadOptions(threads, two_level);
    options.settings["optimize_group_by_constant_keys"] = rewrites ? "1" : "0";
    options.settings["optimize_group_by_function_keys"] = rewrites ? "1" : "0";
    return options;
}

class GroupKeyRewrites : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(GroupKeyRewrites, MatchTheNaiveEvaluatorOnAndOff)
{
    const auto [threads, two_level] = GetParam();
    const VisitsFixture& visits = sharedVisits();
    for (const std::string& sql : kQueries)
    {
        for (const bool rewrites : {true, false})
        {
            SCOPED_TRACE(sql + (rewrites ? " (rewrites on)" : " (rewrites off)"));
            EXPECT_EQ(differenceForQuery(*visits.session, visits.table, sql,
                                         withRewrites(threads, two_level, rewrites)),
                      "");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Threads, GroupKeyRewrites,
    ::testing::Combine(::testing::Values(size_t{1}, size_t{2}, size_t{7}, size_t{64}),
                       ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
    { return threadOptionsName(std::get<0>(info.param), std::get<1>(info.param)); });

TEST(GroupKeyRewrites, GiveTheSameResultAndGroupByFewerKeys)
{
    const VisitsFixture& visits = sharedVisits();
    for (const std::string& sql : kQueries)
    {
        SCOPED_TRACE(sql);
        const QueryResult on = visits.session->execute(sql, withRewrites(1, false, true));
        const QueryResult off = visits.session->execute(sql, withRewrites(1, false, false));
        EXPECT_EQ(printedResult(on), printedResult(off));
        EXPECT_LE(on.stats.group_keys.size(), off.stats.group_keys.size());
    }
    const QueryResult q36 = visits.session->execute(kQueries[1], withRewrites(1, false, true));
    EXPECT_EQ(q36.stats.group_keys.size(), 1u);
}

}  // namespace
}  // namespace granary::oracle
