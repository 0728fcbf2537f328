// Query shapes around the SELECT (subqueries in FROM, IN and scalar subqueries, CTEs,
// DISTINCT, UNION ALL, LIMIT BY) over 80,000 generated rows, at 1 and 2 threads and
// oversubscribed (64, 256), against answers computed directly from the rows.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/columns/column.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

/// The rows' values of `column`, in row order.
std::vector<Value> columnValues(const RowTable& table, std::string_view column)
{
    const size_t index = table.columnIndex(column);
    std::vector<Value> values;
    for (const Row& row : table.rows)
    {
        values.push_back(row[index]);
    }
    return values;
}

int64_t integerAt(const Value& value)
{
    return static_cast<int64_t>(exactInteger(value));
}

/// The query's one UInt64/Int64 result value.
int64_t scalar(const std::string& query, size_t threads)
{
    QueryOptions options;
    options.threads = threads;
    const Block block = sharedVisits().session->execute(query, options).block;
    EXPECT_EQ(block.rows(), 1u) << query;
    const Column& column = block.columns.at(0).column;
    return column.type() == TypeId::UInt64 ? static_cast<int64_t>(column.valueAt<uint64_t>(0))
                                           : column.valueAt<int64_t>(0);
}

Block run(const std::string& query, size_t threads)
{
    QueryOptions options;
    options.threads = threads;
    return sharedVisits().session->execute(query, options).block;
}

/// The UserIDs of the rows whose RegionID is `region`.
std::set<int64_t> usersOfRegion(int64_t region)
{
    const RowTable& table = sharedVisits().table;
    const std::vector<Value> regions = columnValues(table, "RegionID");
    const std::vector<Value> users = columnValues(table, "UserID");
    std::set<int64_t> found;
    for (size_t r = 0; r < regions.size(); ++r)
    {
        if (integerAt(regions[r]) == region)
        {
            found.insert(integerAt(users[r]));
        }
    }
    return found;
}

/// The most frequent RegionID: its users make a set of a useful size.
int64_t busiestRegion()
{
    std::map<int64_t, size_t> counts;
    for (const Value& region : columnValues(sharedVisits().table, "RegionID"))
    {
        ++counts[integerAt(region)];
    }
    return std::max_element(counts.begin(), counts.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
}

class QueryShapes : public ::testing::TestWithParam<size_t>
{
};

TEST_P(QueryShapes, InSubqueryAndNotInMatchTheSetOfTheSubquery)
{
    const int64_t region = busiestRegion();
    const std::set<int64_t> users = usersOfRegion(region);
    ASSERT_GT(users.size(), 100u);
    size_t inside = 0;
    for (const Value& user : columnValues(sharedVisits().table, "UserID"))
    {
        inside += users.contains(integerAt(user));
    }
    const std::string subquery =
        "(SELECT UserID FROM visits WHERE RegionID = " + std::to_string(region) + ")";
    EXPECT_EQ(scalar("SELECT count(*) FROM visits WHERE UserID IN " + subquery, GetParam()),
              static_cast<int64_t>(inside));
    EXPECT_EQ(scalar("SELECT count(*) FROM visits WHERE UserID NOT IN " + subquery, GetParam()),
              static_cast<int64_t>(sharedVisits().table.rows.size() - inside));
    // The same set through a CTE, read twice.
    EXPECT_EQ(scalar("WITH s AS " + subquery +
                         " SELECT count(*) FROM visits WHERE UserID IN (SELECT UserID FROM s) "
                         "AND UserID IN (SELECT UserID FROM s)",
                     GetParam()),
              static_cast<int64_t>(inside));
}

TEST_P(QueryShapes, SubqueryInFromAggregatesTheInnerGroups)
{
    std::map<int64_t, size_t> per_user;
    for (const Value& user : columnValues(sharedVisits().table, "UserID"))
    {
        ++per_user[integerAt(user)];
    }
    size_t repeated = 0;
    for (const auto& [user, count] : per_user)
    {
        repeated += count > 1;
    }
    const Block block =
        run("SELECT count(*), sum(c), countIf(c > 1) FROM "
            "(SELECT UserID, count(*) AS c FROM visits GROUP BY UserID) AS per_user",
            GetParam());
    ASSERT_EQ(block.rows(), 1u);
    EXPECT_EQ(block.columns[0].column.valueAt<uint64_t>(0), per_user.size());
    EXPECT_EQ(block.columns[1].column.valueAt<uint64_t>(0), sharedVisits().table.rows.size());
    EXPECT_EQ(block.columns[2].column.valueAt<uint64_t>(0), repeated);
}

TEST_P(QueryShapes, DistinctGivesEachCombinationOnce)
{
    const RowTable& table = sharedVisits().table;
    const std::vector<Value> engines = columnValues(table, "SearchEngineID");
    const std::vector<Value> advertisers = columnValues(table, "AdvEngineID");
    std::set<std::pair<int64_t, int64_t>> expected;
    for (size_t r = 0; r < engines.size(); ++r)
    {
        expected.insert({integerAt(engines[r]), integerAt(advertisers[r])});
    }
    const Block block = run("SELECT DISTINCT SearchEngineID, AdvEngineID FROM visits", GetParam());
    std::set<std::pair<int64_t, int64_t>> got;
    for (size_t r = 0; r < block.rows(); ++r)
    {
        got.insert({block.columns[0].column.valueAt<int16_t>(r),
                    block.columns[1].column.valueAt<int16_t>(r)});
    }
    EXPECT_EQ(block.rows(), expected.size());
    EXPECT_EQ(got, expected);
}

TEST_P(QueryShapes, ScalarSubqueryAndUnionAll)
{
    const std::vector<Value> widths = columnValues(sharedVisits().table, "ResolutionWidth");
    long double total = 0;
    for (const Value& width : widths)
    {
        total += numericValue(width);
    }
    const long double average = total / static_cast<long double>(widths.size());
    size_t wider = 0;
    for (const Value& width : widths)
    {
        wider += numericValue(width) > average;
    }
    EXPECT_EQ(scalar("SELECT count(*) FROM visits WHERE ResolutionWidth > "
                     "(SELECT avg(ResolutionWidth) FROM visits)",
                     GetParam()),
              static_cast<int64_t>(wider));
    const int64_t region = busiestRegion();
    size_t in_region = 0;
    for (const Value& value : columnValues(sharedVisits().table, "RegionID"))
    {
        in_region += integerAt(value) == region;
    }
    EXPECT_EQ(scalar("SELECT count(*) FROM (SELECT UserID FROM visits UNION ALL SELECT UserID "
                     "FROM visits WHERE RegionID = " +
                         std::to_string(region) + ")",
                     GetParam()),
              static_cast<int64_t>(widths.size() + in_region));
}

TEST_P(QueryShapes, LimitByKeepsTheFirstRowsOfEachKey)
{
    const RowTable& table = sharedVisits().table;
    const std::vector<Value> regions = columnValues(table, "RegionID");
    const std::vector<Value> users = columnValues(table, "UserID");
    std::map<int64_t, std::multiset<int64_t>> users_per_region;
    for (size_t r = 0; r < regions.size(); ++r)
    {
        users_per_region[integerAt(regions[r])].insert(integerAt(users[r]));
    }
    const Block block =
        run("SELECT RegionID, UserID FROM visits ORDER BY RegionID, UserID LIMIT 2 BY RegionID",
            GetParam());
    size_t row = 0;
    for (const auto& [region, region_users] : users_per_region)
    {
        auto user = region_users.begin();
        for (size_t i = 0; i < std::min<size_t>(2, region_users.size()); ++i, ++user, ++row)
        {
            ASSERT_LT(row, block.rows());
            EXPECT_EQ(block.columns[0].column.valueAt<int32_t>(row), region);
            EXPECT_EQ(block.columns[1].column.valueAt<int64_t>(row), *user);
        }
    }
    EXPECT_EQ(row, block.rows());
}

INSTANTIATE_TEST_SUITE_P(Threads, QueryShapes,
                         ::testing::Values(size_t{1}, size_t{2}, size_t{64}, size_t{256}),
                         [](const ::testing::TestParamInfo<size_t>& info)
                         { return std::to_string(info.param) + "Threads"; });

}  // namespace
}  // namespace granary::oracle
