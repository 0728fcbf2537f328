// One condition shared by every aggregate of a query without GROUP BY (FILTER or -If) moves to
// WHERE: against the naive evaluator with the rewrite on and off, at 1 to 256 threads; the same
// rows, names and types either way; fewer rows into the aggregation when it fires; and the
// shapes it must leave alone.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/planner/aggregate_filter_to_where.h"
#include "engine/sql/parser.h"
#include "tests/planner/oracle_value.h"
#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

/// Queries the rewrite applies to. Each condition keeps some row (the oracle has no NULL for
/// an average over none).
const std::vector<std::string> kRewritten = {
    // functions.sql's shape: FILTER and -If alike, a string maximum.
    "SELECT count(*) FILTER (WHERE ResolutionWidth > 1000), avg(RegionID) FILTER "
    "(WHERE ResolutionWidth > 1000), maxIf(URL, ResolutionWidth > 1000) FROM visits",
    // -If only, with a WHERE of its own.
    "SELECT countIf(IsRefresh = 0) AS c, sumIf(RegionID, IsRefresh = 0), "
    "minIf(ResolutionWidth, IsRefresh = 0) FROM visits WHERE RegionID > 0",
    // Aggregates in an expression and in HAVING.
    "SELECT sumIf(ResolutionWidth, RegionID > 10) / countIf(RegionID > 10) AS mean, "
    "minIf(SearchPhrase, RegionID > 10) FROM visits HAVING countIf(RegionID > 10) > 0",
};

/// Queries of functions the naive evaluator does not know: -Distinct, a parametric function;
/// checked against the rewrite turned off.
const std::vector<std::string> kRewrittenBeyondOracle = {
    "SELECT countIf(IsRefresh = 0) AS c, sumDistinctIf(RegionID, IsRefresh = 0), "
    "uniqExactIf(UserID, IsRefresh = 0), quantileExactIf(0.5)(ResolutionWidth, IsRefresh = 0) "
    "FROM visits WHERE RegionID > 0",
};

/// Queries it must leave alone, each for its reason; they still answer as the oracle does.
const std::vector<std::string> kLeftAlone = {
    // Keys: a group with no row passing the condition would vanish.
    "SELECT SearchEngineID, countIf(IsRefresh = 1) FROM visits GROUP BY SearchEngineID "
    "ORDER BY SearchEngineID",
    // Two conditions; an aggregate without one.
    "SELECT countIf(IsRefresh = 1), countIf(IsRefresh = 0) FROM visits",
    "SELECT countIf(IsRefresh = 1), count(*) FROM visits",
    // FILTER and -If on one call: two conditions.
    "SELECT sumIf(IsRefresh, ResolutionWidth > 0) FILTER (WHERE RegionID > 0) FROM visits",
};

QueryOptions withRewrite(size_t threads, bool two_level, bool rewrite)
{
    QueryOptions options = threadOptions(threads, two_level);
    options.settings["optimize_aggregate_filters_to_where"] = rewrite ? "1" : "0";
    return options;
}

class AggregateFilterRewrite : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(AggregateFilterRewrite, MatchesTheNaiveEvaluatorOnAndOff)
{
    const auto [threads, two_level] = GetParam();
    const VisitsFixture& visits = sharedVisits();
    for (const std::vector<std::string>* queries : {&kRewritten, &kLeftAlone})
    {
        for (const std::string& sql : *queries)
        {
            for (const bool rewrite : {true, false})
            {
                SCOPED_TRACE(sql + (rewrite ? " (rewrite on)" : " (rewrite off)"));
                EXPECT_EQ(differenceForQuery(*visits.session, visits.table, sql,
                                             withRewrite(threads, two_level, rewrite)),
                          "");
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Threads, AggregateFilterRewrite,
    ::testing::Combine(::testing::Values(size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{256}),
                       ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
    { return threadOptionsName(std::get<0>(info.param), std::get<1>(info.param)); });

TEST(AggregateFilterRewrite, GivesTheSameResultFromFewerRows)
{
    const VisitsFixture& visits = sharedVisits();
    std::vector<std::string> rewritten = kRewritten;
    rewritten.insert(rewritten.end(), kRewrittenBeyondOracle.begin(), kRewrittenBeyondOracle.end());
    for (const std::string& sql : rewritten)
    {
        SCOPED_TRACE(sql);
        const QueryResult on = visits.session->execute(sql, withRewrite(1, false, true));
        const QueryResult off = visits.session->execute(sql, withRewrite(1, false, false));
        EXPECT_EQ(printedResult(on), printedResult(off));
        EXPECT_LT(on.stats.input_rows, off.stats.input_rows);
    }
    for (const std::string& sql : kLeftAlone)
    {
        SCOPED_TRACE(sql);
        const QueryResult on = visits.session->execute(sql, withRewrite(1, false, true));
        const QueryResult off = visits.session->execute(sql, withRewrite(1, false, false));
        EXPECT_EQ(printedResult(on), printedResult(off));
        EXPECT_EQ(on.stats.input_rows, off.stats.input_rows);
    }
}

/// The statement-level rewrite on the shapes execution cannot tell apart from its result: a
/// bare column as the condition (WHERE takes numbers, -If only UInt8) and an aggregate inside.
TEST(AggregateFilterRewrite, LeavesStatesArrayJoinTotalsAndOtherConditionsAlone)
{
    for (const std::string sql :
         {"SELECT sumIfState(x, c) FROM t", "SELECT sumArrayIf(a, c) FROM t",
          "SELECT countIf(c) FROM t ARRAY JOIN a", "SELECT countIf(c) FROM t GROUP BY ROLLUP(k)",
          "SELECT countIf(c) FROM t GROUP BY k WITH TOTALS",
          "SELECT sumIf(x, c), countIf(c) FROM t",
          "SELECT count(*) FILTER (WHERE sum(x) > 1) FROM t"})
    {
        SCOPED_TRACE(sql);
        sql::SelectStatement select = sql::parseSelect(sql);
        EXPECT_FALSE(moveSharedAggregateFilterToWhere(select));
        EXPECT_EQ(select.where, nullptr);
    }
    sql::SelectStatement select =
        sql::parseSelect("SELECT countIf(c > 1), anyIf(s, c > 1) FROM t WHERE k = 2");
    EXPECT_TRUE(moveSharedAggregateFilterToWhere(select));
    EXPECT_TRUE(select.where->as<sql::BinaryOperation>() != nullptr);
}

}  // namespace
}  // namespace granary::oracle
