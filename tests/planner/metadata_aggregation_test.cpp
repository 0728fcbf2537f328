// count(*) and min / max of integer sort-key columns over a whole table come from part metadata
// (metadata_aggregation.h): the same rows as the scan's aggregation, against the naive evaluator
// with the settings on and off, over one part and several, and only for the shapes they answer.

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

struct MetadataQuery
{
    std::string sql;
    bool from_metadata;  ///< Whether part metadata answers it.
};

// visits is sorted by (CounterID, EventDate, UserID).
const std::vector<MetadataQuery> kQueries = {
    {"SELECT min(EventDate), max(EventDate) FROM visits", true},
    {"SELECT max(CounterID), min(UserID), max(UserID), min(CounterID) FROM visits", true},
    {"SELECT max(CounterID) - min(CounterID) AS spread FROM visits", true},
    {"SELECT min(CounterID) AS m FROM visits HAVING m > 1000000", true},
    {"SELECT MIN(EventDate) AS lo, MAX(EventDate) AS hi FROM visits ORDER BY lo LIMIT 1", true},
    {"SELECT count(*) FROM visits", true},
    {"SELECT count() AS c, min(EventDate), count() * 2 FROM visits", true},
    {"SELECT min(EventDate), count(*) FROM visits", true},
    // Shapes metadata does not answer.
    {"SELECT count(*) FROM visits WHERE CounterID = 62", false},
    {"SELECT count(URL) FROM visits", false},
    {"SELECT count(DISTINCT CounterID) FROM visits", false},
    {"SELECT countIf(CounterID = 62) FROM visits", false},
    {"SELECT count(*), sum(CounterID) FROM visits", false},
    {"SELECT min(EventDate), max(EventDate) FROM visits WHERE CounterID = 62", false},
    {"SELECT min(ClientIP), max(ClientIP) FROM visits", false},
    {"SELECT min(CounterID + 1) FROM visits", false},
    {"SELECT CounterID, min(EventDate) FROM visits GROUP BY CounterID ORDER BY CounterID "
     "LIMIT 5",
     false},
    {"SELECT min(URL) FROM visits", false},
};

QueryOptions withMetadata(bool bounds, bool counts)
{
    QueryOptions options = threadOptions(2, false);
    options.settings["optimize_min_max_from_sort_key_bounds"] = bounds ? "1" : "0";
    options.settings["optimize_trivial_count_query"] = counts ? "1" : "0";
    return options;
}

QueryOptions withMetadata(bool on)
{
    return withMetadata(on, on);
}

/// Each query over `visits` against the naive evaluator with metadata on and off, answered
/// from metadata (reading no row) exactly where it says so.
void expectAnswersMatchTheNaiveEvaluator(const std::vector<MetadataQuery>& queries)
{
    const VisitsFixture& visits = sharedVisits();
    for (const MetadataQuery& query : queries)
    {
        for (const bool on : {true, false})
        {
            SCOPED_TRACE(query.sql + (on ? " (metadata on)" : " (metadata off)"));
            EXPECT_EQ(
                differenceForQuery(*visits.session, visits.table, query.sql, withMetadata(on)), "");
            const QueryResult result = visits.session->execute(query.sql, withMetadata(on));
            EXPECT_EQ(result.stats.aggregated_from_metadata, on && query.from_metadata);
            if (on && query.from_metadata)
            {
                EXPECT_EQ(result.rows_read, 0u);
            }
        }
    }
}

TEST(MetadataAggregation, MatchesTheNaiveEvaluatorOnAndOff)
{
    expectAnswersMatchTheNaiveEvaluator(kQueries);
}

/// A WHERE that every granule's sort-key bounds satisfy for all their rows (the range of
/// CounterID read from the table itself) leaves the metadata answer exact; one that some
/// granule satisfies only in part, or that reads a column outside the sort key, is scanned.
TEST(MetadataAggregation, AWhereTheBoundsProveForEveryRowIsAnsweredFromMetadata)
{
    const VisitsFixture& visits = sharedVisits();
    const QueryResult range =
        visits.session->execute("SELECT min(CounterID), max(CounterID), min(UserID) FROM visits");
    const int64_t least = range.block.columns[0].column.view().valueAt<int32_t>(0);
    const int64_t greatest = range.block.columns[1].column.view().valueAt<int32_t>(0);
    const int64_t least_user = range.block.columns[2].column.view().valueAt<int64_t>(0);
    const auto text = [](int64_t value) { return std::to_string(value); };
    const std::string aggregates = "SELECT min(EventDate), max(UserID), count(*) FROM visits ";
    const std::vector<MetadataQuery> queries = {
        {aggregates + "WHERE CounterID >= " + text(least), true},
        {aggregates + "WHERE CounterID <> " + text(least - 1), true},
        {aggregates + "WHERE " + text(greatest) + " >= CounterID AND CounterID > " +
             text(least - 5),
         true},
        {aggregates + "WHERE CounterID <= " + text(greatest) + " AND UserID >= " + text(least_user),
         true},
        {aggregates + "WHERE CounterID < " + text(greatest), false},
        {aggregates + "WHERE CounterID <> " + text(least), false},
        {aggregates + "WHERE CounterID = " + text(least), false},
        {aggregates + "WHERE UserID > " + text(least_user), false},
        {aggregates + "WHERE CounterID >= " + text(least) + " AND URL <> ''", false},
        {aggregates + "WHERE CounterID + 0 >= " + text(least), false},
    };
    expectAnswersMatchTheNaiveEvaluator(queries);
}

TEST(MetadataAggregation, EachSettingTurnsOffItsOwnAggregates)
{
    const VisitsFixture& visits = sharedVisits();
    const std::string both = "SELECT count(*), max(CounterID) FROM visits";
    const std::string count = "SELECT count(*) FROM visits";
    const std::string bounds = "SELECT max(CounterID) FROM visits";
    const auto answered = [&](const std::string& sql, bool bounds_on, bool counts_on)
    {
        return visits.session->execute(sql, withMetadata(bounds_on, counts_on))
            .stats.aggregated_from_metadata;
    };
    EXPECT_TRUE(answered(both, true, true));
    EXPECT_FALSE(answered(both, false, true));
    EXPECT_FALSE(answered(both, true, false));
    EXPECT_TRUE(answered(count, false, true));
    EXPECT_FALSE(answered(count, true, false));
    EXPECT_TRUE(answered(bounds, true, false));
    EXPECT_FALSE(answered(bounds, false, true));
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

TEST(MetadataAggregation, SignedValuesOverSeveralPartsAndAnEmptyTable)
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
        "max(w), count(*) FROM t";
    const QueryResult on = session.execute(sql, withMetadata(true));
    const QueryResult off = session.execute(sql, withMetadata(false));
    EXPECT_TRUE(on.stats.aggregated_from_metadata);
    EXPECT_FALSE(off.stats.aggregated_from_metadata);
    EXPECT_EQ(tsvOf(on), tsvOf(off));
    EXPECT_EQ(tsvOf(on), "-58\t48\t" + std::to_string(least_b) + "\t" + std::to_string(greatest_b) +
                             "\t0u\t250u\t" + std::to_string(1'400'000'000 + 19'999 * 61) +
                             "u\t40000u\t\n");

    session.execute("CREATE TABLE empty (a Int32) ORDER BY a");
    const std::string empty_sql = "SELECT min(a), max(a) FROM empty";
    const QueryResult empty_on = session.execute(empty_sql, withMetadata(true));
    EXPECT_FALSE(empty_on.stats.aggregated_from_metadata);
    EXPECT_EQ(tsvOf(empty_on), tsvOf(session.execute(empty_sql, withMetadata(false))));
    const std::string empty_count = "SELECT count(*) FROM empty";
    const QueryResult count_on = session.execute(empty_count, withMetadata(true));
    EXPECT_TRUE(count_on.stats.aggregated_from_metadata);
    EXPECT_EQ(tsvOf(count_on), tsvOf(session.execute(empty_count, withMetadata(false))));
    EXPECT_EQ(tsvOf(count_on), "0u\t\n");
}

}  // namespace
}  // namespace granary::oracle
