// min / max of integer sort-key columns over a whole table come from the parts' granule bounds
// (bounds_aggregation.h): the same rows as the scan's aggregation, against the naive evaluator
// with the setting on and off, over one part and several, and only for the shapes it answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "tests/planner/oracle_value.h"
#include "tests/planner/query_check.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

struct BoundsQuery
{
    std::string sql;
    bool from_bounds;  ///< Whether the bounds answer it.
};

// visits is sorted by (CounterID, EventDate, UserID).
const std::vector<BoundsQuery> kQueries = {
    {"SELECT min(EventDate), max(EventDate) FROM visits", true},
    {"SELECT max(CounterID), min(UserID), max(UserID), min(CounterID) FROM visits", true},
    {"SELECT max(CounterID) - min(CounterID) AS spread FROM visits", true},
    {"SELECT min(CounterID) AS m FROM visits HAVING m > 1000000", true},
    {"SELECT MIN(EventDate) AS lo, MAX(EventDate) AS hi FROM visits ORDER BY lo LIMIT 1", true},
    // Shapes the bounds do not answer.
    {"SELECT min(EventDate), max(EventDate) FROM visits WHERE CounterID = 62", false},
    {"SELECT min(EventDate), count(*) FROM visits", false},
    {"SELECT min(ClientIP), max(ClientIP) FROM visits", false},
    {"SELECT min(CounterID + 1) FROM visits", false},
    {"SELECT CounterID, min(EventDate) FROM visits GROUP BY CounterID ORDER BY CounterID "
     "LIMIT 5",
     false},
    {"SELECT min(URL) FROM visits", false},
};

QueryOptions withBounds(bool bounds)
{
    QueryOptions options = threadOptions(2, false);
    options.settings["optimize_min_max_from_sort_key_bounds"] = bounds ? "1" : "0";
    return options;
}

TEST(BoundsAggregation, MatchesTheNaiveEvaluatorOnAndOff)
{
    const VisitsFixture& visits = sharedVisits();
    for (const BoundsQuery& query : kQueries)
    {
        for (const bool bounds : {true, false})
        {
            SCOPED_TRACE(query.sql + (bounds ? " (bounds on)" : " (bounds off)"));
            EXPECT_EQ(
                differenceForQuery(*visits.session, visits.table, query.sql, withBounds(bounds)),
                "");
            const QueryResult result = visits.session->execute(query.sql, withBounds(bounds));
            EXPECT_EQ(result.stats.aggregated_from_bounds, bounds && query.from_bounds);
            if (bounds && query.from_bounds)
            {
                EXPECT_EQ(result.rows_read, 0u);
            }
        }
    }
}

/// TSV of a result's rows.
std::string tsvOf(const QueryResult& result)
{
    std::string text;
    for (size_t row = 0; row < result.block.rows(); ++row)
    {
        for (const auto& column : result.block.columns)
        {
            text += describe(valueAt(column.column, row)) + "\t";
        }
        text += "\n";
    }
    return text;
}

TEST(BoundsAggregation, SignedValuesOverSeveralPartsAndAnEmptyTable)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (a Int32, b Int64, w UInt32, u UInt8) ORDER BY (a, b, w, u)");
    // Two inserts (two parts) of 20,000 rows each, negative values included; the extremes
    // lie inside granules, not at their ends.
    int64_t least_b = INT64_MAX;
    int64_t greatest_b = INT64_MIN;
    for (const int part : {0, 1})
    {
        std::ostringstream rows;
        for (int i = 0; i < 20'000; ++i)
        {
            const int64_t b = (int64_t{i} * 7919 % 20'011 - 10'000) * (part == 0 ? 3 : 5);
            least_b = std::min(least_b, b);
            greatest_b = std::max(greatest_b, b);
            rows << (i % 97) - 48 - part * 10 << '\t' << b << '\t' << 1'400'000'000 + i * 61 << '\t'
                 << (i * 13 + part) % 251 << '\n';
        }
        std::istringstream input(rows.str());
        QueryOptions load;
        load.insert_data = &input;
        session.execute("INSERT INTO t FORMAT TSV", load);
    }
    const std::string sql =
        "SELECT min(a), max(a), min(b), max(b), min(u), max(u), "
        "max(w) FROM t";
    const QueryResult on = session.execute(sql, withBounds(true));
    const QueryResult off = session.execute(sql, withBounds(false));
    EXPECT_TRUE(on.stats.aggregated_from_bounds);
    EXPECT_FALSE(off.stats.aggregated_from_bounds);
    EXPECT_EQ(tsvOf(on), tsvOf(off));
    EXPECT_EQ(tsvOf(on), "-58\t48\t" + std::to_string(least_b) + "\t" + std::to_string(greatest_b) +
                             "\t0u\t250u\t" + std::to_string(1'400'000'000 + 19'999 * 61) + "u\t\n");

    session.execute("CREATE TABLE empty (a Int32) ORDER BY a");
    const std::string empty_sql = "SELECT min(a), max(a) FROM empty";
    const QueryResult empty_on = session.execute(empty_sql, withBounds(true));
    EXPECT_FALSE(empty_on.stats.aggregated_from_bounds);
    EXPECT_EQ(tsvOf(empty_on), tsvOf(session.execute(empty_sql, withBounds(false))));
}

}  // namespace
}  // namespace granary::oracle
