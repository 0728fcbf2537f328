// The -If combinator and FILTER (WHERE) through SQL, against the naive evaluator (which
// aggregates the rows a condition keeps), at 1 to 256 threads with one- and two-level tables;
// and the errors of combinators and parametric calls, with their positions.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/common/exception.h"
#include "tests/planner/oracle_value.h"
#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

/// Every group keeps some row (the oracle has no NULL for a sum over none): conditions that
/// the GROUP BY key itself satisfies, or count, which gives 0.
const std::vector<std::string> kQueries = {
    "SELECT countIf(IsRefresh = 1), count(*) FILTER (WHERE IsRefresh = 1), "
    "sumIf(ResolutionWidth, AdvEngineID > 0), sum(ResolutionWidth) FILTER (WHERE AdvEngineID > 0), "
    "count(*) FROM visits",
    "SELECT SearchEngineID, countIf(SearchPhrase <> ''), "
    "avgIf(ResolutionWidth, SearchEngineID >= 0), minIf(URL, RegionID >= 0), "
    "maxIf(ResolutionWidth, IsRefresh < 10) FROM visits GROUP BY SearchEngineID ORDER BY 1",
    "SELECT UserID, countIf(IsRefresh = 1) AS c, count() FILTER (WHERE ResolutionWidth > 1000) "
    "FROM visits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 20",
    "SELECT RegionID, sumIf(IsRefresh, ResolutionWidth > 0) FILTER (WHERE RegionID > 0) AS s "
    "FROM visits WHERE RegionID > 0 GROUP BY RegionID HAVING countIf(IsRefresh = 0) > 1 "
    "ORDER BY s DESC, RegionID LIMIT 15",
};

class AggregateCombinatorQuery : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(AggregateCombinatorQuery, MatchesNaiveEvaluator)
{
    const auto [threads, force_two_level] = GetParam();
    const QueryOptions options = threadOptions(threads, force_two_level);
    const VisitsFixture& visits = sharedVisits();
    for (const std::string& sql : kQueries)
    {
        SCOPED_TRACE(sql);
        EXPECT_EQ(differenceForQuery(*visits.session, visits.table, sql, options), "");
    }
}

INSTANTIATE_TEST_SUITE_P(
    Threads, AggregateCombinatorQuery,
    ::testing::Combine(::testing::Values(size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{256}),
                       ::testing::Bool()),
    [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
    { return threadOptionsName(std::get<0>(info.param), std::get<1>(info.param)); });

/// Calls that compute the same thing in other spellings (count(DISTINCT x), uniqExact(x) and
/// countDistinct(x); minDistinct(x) and min(x)) are computed once and answer alike.
TEST(AggregateCombinators, EqualAggregatesAreComputedOnce)
{
    const QueryResult result = sharedVisits().session->execute(
        "SELECT SearchEngineID, count(DISTINCT UserID), uniqExact(UserID), countDistinct(UserID), "
        "minDistinct(URL), min(URL), sumIf(ResolutionWidth, IsRefresh = 1), "
        "sum(ResolutionWidth) FILTER (WHERE IsRefresh = 1) FROM visits GROUP BY SearchEngineID");
    // The -If call and the FILTER differ in form (a condition argument, a mask): both stay.
    EXPECT_EQ(result.stats.aggregates.size(), 4u);
    const Block& block = result.block;
    ASSERT_EQ(block.columns.size(), 8u);
    ASSERT_GT(block.rows(), 1u);
    for (size_t row = 0; row < block.rows(); ++row)
    {
        const auto value = [&](size_t column)
        { return describe(valueAt(block.columns[column].column, row)); };
        EXPECT_EQ(value(1), value(2));
        EXPECT_EQ(value(1), value(3));
        EXPECT_EQ(value(4), value(5));
        EXPECT_EQ(value(6), value(7));
    }
}

/// The error `sql` raises: its code and message.
std::pair<ErrorCode, std::string> errorOf(const std::string& sql)
{
    try
    {
        sharedVisits().session->execute(sql);
    }
    catch (const Exception& error)
    {
        return {error.code(), error.what()};
    }
    return {ErrorCode::kOk, ""};
}

TEST(AggregateCombinators, BadCallsAreClearErrors)
{
    using ::testing::HasSubstr;
    const auto not_uint8 = errorOf("SELECT sumIf(ResolutionWidth, RegionID) FROM visits");
    EXPECT_EQ(not_uint8.first, ErrorCode::kTypeMismatch);
    EXPECT_THAT(not_uint8.second, HasSubstr("condition of sumIf"));
    const auto no_condition = errorOf("SELECT countIf() FROM visits");
    EXPECT_EQ(no_condition.first, ErrorCode::kBadArguments);
    EXPECT_THAT(no_condition.second, HasSubstr("condition"));
    const auto too_many = errorOf(
        "SELECT sumIf(ResolutionWidth, RegionID, IsRefresh = 1) FROM "
        "visits");
    EXPECT_EQ(too_many.first, ErrorCode::kBadArguments);
    EXPECT_THAT(too_many.second, HasSubstr("takes 1 argument, got 2"));
    const auto parameter = errorOf("SELECT sum(1)(ResolutionWidth) FROM visits");
    EXPECT_EQ(parameter.first, ErrorCode::kBadArguments);
    EXPECT_THAT(parameter.second, HasSubstr("0 parameters, got 1"));
    const auto not_literal = errorOf("SELECT sum(RegionID)(ResolutionWidth) FROM visits");
    EXPECT_EQ(not_literal.first, ErrorCode::kBadArguments);
    EXPECT_THAT(not_literal.second, HasSubstr("parameter RegionID of sum at line 1, column 12"));
    EXPECT_EQ(errorOf("SELECT frobnicateIf(1) FROM visits").first, ErrorCode::kUnknownFunction);
    const auto filter_not_uint8 = errorOf("SELECT count(*) FILTER (WHERE RegionID) FROM visits");
    EXPECT_EQ(filter_not_uint8.first, ErrorCode::kTypeMismatch);
    EXPECT_THAT(filter_not_uint8.second, HasSubstr("must be UInt8"));
    const auto nested = errorOf("SELECT count(*) FILTER (WHERE sum(IsRefresh) > 1) FROM visits");
    EXPECT_EQ(nested.first, ErrorCode::kBadArguments);
    EXPECT_THAT(nested.second, HasSubstr("inside another aggregate function"));
}

}  // namespace
}  // namespace granary::oracle
