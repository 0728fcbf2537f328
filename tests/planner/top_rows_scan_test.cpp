// ORDER BY ... LIMIT without GROUP BY: a morsel whose sort-key bounds cannot enter the top rows
// is not read. Against the naive evaluator over several morsels, ascending and descending,
// with ties, OFFSET and WHERE, at 1 to 7 threads; and the skipping happens where it should.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "tests/planner/hits_generator.h"
#include "tests/planner/query_check.h"
#include "tests/planner/table_conversion.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

/// 37 granules, each a morsel of a top-N scan by a sort-key column (five 64K-row morsels of
/// other scans): the first ones read set a threshold the later ones can fall outside.
constexpr size_t kRows = 300'000;

const VisitsFixture& largeVisits()
{
    static const VisitsFixture fixture = []
    {
        VisitsFixture built;
        built.table = emptyTableFor(kVisitsCreate);
        appendHitsRows(built.table, kRows, 99);
        built.session = std::make_unique<Session>(Database::openInMemory());
        createAndFill(*built.session, kVisitsCreate, built.table);
        return built;
    }();
    return fixture;
}

const std::vector<std::string> kQueries = {
    // The leading sort-key column, with many rows tied on each value.
    "SELECT CounterID, WatchID FROM visits ORDER BY CounterID LIMIT 5",
    "SELECT CounterID, UserID FROM visits ORDER BY CounterID DESC, UserID LIMIT 7 OFFSET 3",
    "SELECT CounterID, SearchPhrase FROM visits WHERE SearchPhrase <> '' "
    "ORDER BY CounterID, SearchPhrase LIMIT 10",
    // Later sort-key columns (bounds per granule still hold), a Date and a BIGINT.
    "SELECT EventDate, URL FROM visits WHERE AdvEngineID = 0 ORDER BY EventDate DESC, URL "
    "LIMIT 12",
    "SELECT UserID FROM visits ORDER BY UserID LIMIT 4",
    // Not a sort-key column, an expression, and a LIMIT past the rows: nothing to skip.
    "SELECT RegionID, WatchID FROM visits ORDER BY RegionID, WatchID LIMIT 6",
    "SELECT CounterID + 1 AS c FROM visits ORDER BY c LIMIT 3",
    "SELECT CounterID FROM visits WHERE CounterID < 3 ORDER BY CounterID DESC LIMIT 1000000",
    "SELECT CounterID FROM visits ORDER BY CounterID LIMIT 0",
};

class TopRowsScan : public ::testing::TestWithParam<size_t>
{
};

/// The naive evaluator's answers to kQueries, computed once for every thread count.
const std::vector<NaiveResult>& expectedAnswers()
{
    static const std::vector<NaiveResult> answers = []
    {
        std::vector<NaiveResult> computed;
        for (const std::string& sql : kQueries)
        {
            computed.push_back(evaluateNaively(sql::parseSelect(sql), largeVisits().table));
        }
        return computed;
    }();
    return answers;
}

TEST_P(TopRowsScan, MatchesTheNaiveEvaluator)
{
    QueryOptions options;
    options.threads = GetParam();
    for (size_t q = 0; q < kQueries.size(); ++q)
    {
        SCOPED_TRACE(kQueries[q]);
        EXPECT_EQ(
            differenceForQuery(*largeVisits().session, expectedAnswers()[q], kQueries[q], options),
            "");
    }
}

INSTANTIATE_TEST_SUITE_P(Threads, TopRowsScan, ::testing::Values(size_t{1}, size_t{2}, size_t{7}),
                         [](const ::testing::TestParamInfo<size_t>& info)
                         { return std::to_string(info.param) + "Threads"; });

TEST(TopRowsScan, SkipsMorselsOutsideTheTopAndOnlyThere)
{
    QueryOptions one_thread;
    one_thread.threads = 1;
    Session& session = *largeVisits().session;
    // One thread reads the morsels in order: the first holds the smallest CounterIDs, every
    // later one starts past its 5th.
    const QueryResult ascending =
        session.execute("SELECT CounterID FROM visits ORDER BY CounterID LIMIT 5", one_thread);
    EXPECT_GT(ascending.stats.top_rows_morsels_skipped, 0u);
    EXPECT_LT(ascending.rows_read, kRows);
    const QueryResult not_sort_key =
        session.execute("SELECT RegionID FROM visits ORDER BY RegionID LIMIT 5", one_thread);
    EXPECT_EQ(not_sort_key.stats.top_rows_morsels_skipped, 0u);
    EXPECT_EQ(not_sort_key.rows_read, kRows);
}

}  // namespace
}  // namespace granary::oracle
