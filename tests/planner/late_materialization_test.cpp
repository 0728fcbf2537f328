// Late materialization: a top-N without aggregation whose outputs read columns that neither
// WHERE nor ORDER BY reads scans its keys alone and fetches the other columns for the top
// rows. Against the naive evaluator on three parts, in memory and compressed on disk, at 1,
// 2 and 7 threads; NULLs and arrays fetched as stored; the bytes it saves, and the queries
// it leaves to the plain scan.

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/formats/output_format.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "tests/planner/hits_generator.h"
#include "tests/planner/query_check.h"
#include "tests/planner/table_conversion.h"
#include "tests/planner/test_tables.h"
#include "tests/support/temporary_folder.h"

namespace granary::oracle
{
namespace
{

/// Three parts of 13 granules or so: top rows come from every part, several per morsel.
constexpr size_t kRows = 100'000;
constexpr size_t kParts = 3;

/// Creates `visits` in `session` and inserts the rows in kParts inserts (a part each).
void fillInParts(Session& session, const RowTable& table)
{
    session.execute(kVisitsCreate);
    for (size_t part = 0; part < kParts; ++part)
    {
        RowTable slice{table.names, table.types, {}};
        slice.rows.assign(table.rows.begin() + part * kRows / kParts,
                          table.rows.begin() + (part + 1) * kRows / kParts);
        session.database().insert("visits", {toBlock(slice)});
    }
}

struct Fixture
{
    testing::TemporaryFolder folder;
    RowTable table;
    std::unique_ptr<Session> in_memory;
    std::unique_ptr<Session> on_disk;
};

const Fixture& fixture()
{
    static const std::unique_ptr<Fixture> built = []
    {
        auto fixture = std::make_unique<Fixture>();
        fixture->table = emptyTableFor(kVisitsCreate);
        appendHitsRows(fixture->table, kRows, 2024);
        fixture->in_memory = std::make_unique<Session>(Database::openInMemory());
        fillInParts(*fixture->in_memory, fixture->table);
        fixture->on_disk =
            std::make_unique<Session>(Session::openDatabase(fixture->folder.path() / "data"));
        fillInParts(*fixture->on_disk, fixture->table);
        return fixture;
    }();
    return *built;
}

const std::vector<std::string> kQueries = {
    "SELECT * FROM visits WHERE URL LIKE '%google%' ORDER BY EventTime LIMIT 10",
    "SELECT * FROM visits ORDER BY EventTime DESC, WatchID LIMIT 7 OFFSET 5",
    // The leading sort-key column: morsels skipped by their bounds as well.
    "SELECT * FROM visits ORDER BY CounterID, WatchID LIMIT 5",
    "SELECT URL, Title, length(Referer) AS r FROM visits WHERE RegionID > 100 "
    "ORDER BY ResolutionWidth, WatchID LIMIT 20",
    // A computed key; many rows tied on it.
    "SELECT SearchPhrase, Title, CounterID + 1 AS c FROM visits ORDER BY c DESC LIMIT 3",
    "SELECT Title, AdvEngineID FROM visits ORDER BY AdvEngineID DESC, EventTime LIMIT 100",
    // No row passes; more rows wanted than pass.
    "SELECT * FROM visits WHERE RegionID > 1000000 ORDER BY EventTime LIMIT 10",
    "SELECT URL, UserID FROM visits WHERE SearchPhrase = 'абв' ORDER BY UserID LIMIT 50",
    "SELECT * FROM visits ORDER BY EventTime LIMIT 0",
};

struct Case
{
    bool on_disk;
    size_t threads;
};

class LateMaterialization : public ::testing::TestWithParam<Case>
{
};

TEST_P(LateMaterialization, MatchesTheNaiveEvaluator)
{
    Session& session = GetParam().on_disk ? *fixture().on_disk : *fixture().in_memory;
    QueryOptions options;
    options.threads = GetParam().threads;
    for (const std::string& query : kQueries)
    {
        SCOPED_TRACE(query);
        EXPECT_EQ(differenceForQuery(session, fixture().table, query, options), "");
    }
}

INSTANTIATE_TEST_SUITE_P(Parts, LateMaterialization,
                         ::testing::Values(Case{false, 1}, Case{false, 2}, Case{false, 7},
                                           Case{true, 1}, Case{true, 2}, Case{true, 7}),
                         [](const ::testing::TestParamInfo<Case>& info)
                         {
                             return std::string(info.param.on_disk ? "OnDisk" : "InMemory") +
                                    std::to_string(info.param.threads) + "Threads";
                         });

/// One thread: without ORDER BY, how many morsels a scan reads before LIMIT stops it depends
/// on how the workers interleave.
QueryResult run(Session& session, const std::string& query, bool late)
{
    QueryOptions options;
    options.threads = 1;
    options.settings["query_plan_optimize_lazy_materialization"] = late ? "1" : "0";
    return session.execute(query, options);
}

TEST(LateMaterialization, ReadsTheOtherColumnsOfTheTopRowsAlone)
{
    for (Session* session : {fixture().in_memory.get(), fixture().on_disk.get()})
    {
        // 16 columns of every row that passes, or two, and a granule of each column per row.
        const std::string select_all =
            "SELECT * FROM visits WHERE AdvEngineID = 0 ORDER BY EventTime LIMIT 10";
        const QueryResult late = run(*session, select_all, true);
        EXPECT_EQ(late.stats.late_materialized_rows, 10u);
        EXPECT_LT(late.bytes_read, run(*session, select_all, false).bytes_read);
        // Nothing to leave out (the outputs read only what WHERE and ORDER BY read), or more
        // rows than the bound: the plain scan.
        for (const std::string& plain :
             {std::string("SELECT URL, EventTime FROM visits WHERE URL LIKE '%a%' "
                          "ORDER BY EventTime LIMIT 10"),
              std::string("SELECT * FROM visits ORDER BY EventTime LIMIT 101"),
              std::string("SELECT * FROM visits ORDER BY EventTime LIMIT 60 OFFSET 50"),
              std::string("SELECT * FROM visits LIMIT 10")})
        {
            SCOPED_TRACE(plain);
            const QueryResult result = run(*session, plain, true);
            EXPECT_EQ(result.stats.late_materialized_rows, 0u);
            EXPECT_EQ(result.bytes_read, run(*session, plain, false).bytes_read);
        }
        QueryOptions any_limit;
        any_limit.settings["query_plan_max_limit_for_lazy_materialization"] = "0";
        EXPECT_EQ(session->execute("SELECT * FROM visits ORDER BY EventTime LIMIT 1000", any_limit)
                      .stats.late_materialized_rows,
                  1000u);
    }
}

std::string tsv(const Block& block)
{
    std::ostringstream text;
    writeBlockRows(block, OutputFormat::kTSV, text);
    return text.str();
}

/// Row r's v where it is not NULL: "s<r>" (appended, not `"s" + ...`, which GCC 12 flags
/// with a false -Wrestrict).
std::string textOfRow(size_t row)
{
    std::string text = "s";
    text += std::to_string(row);
    return text;
}

TEST(LateMaterialization, FetchesNullsAndArraysAsStored)
{
    // Row r: k = r, v NULL where r % 3 == 0 else "s<r>", a = [0, 1, ..., r % 4 - 1].
    // Past three chunks (Part::kChunkRows) in one part: the fetched rows come from several.
    constexpr size_t kTableRows = 200'000;
    for (const bool on_disk : {false, true})
    {
        SCOPED_TRACE(on_disk ? "on disk" : "in memory");
        const testing::TemporaryFolder folder;
        Session session(on_disk ? Session::openDatabase(folder.path() / "data")
                                : Database::openInMemory());
        session.execute(
            "CREATE TABLE t (k UInt64, v Nullable(String), a Array(UInt32)) "
            "ORDER BY k");
        Block block;
        block.columns.push_back({"k", Column(TypeId::UInt64)});
        block.columns.push_back({"v", Column(DataType::makeNullable(TypeId::String))});
        block.columns.push_back({"a", Column(DataType::array(TypeId::UInt32))});
        for (size_t row = 0; row < kTableRows; ++row)
        {
            block.columns[0].column.append(static_cast<uint64_t>(row));
            block.columns[1].column.appendString(textOfRow(row));
            if (row % 3 == 0)
            {
                block.columns[1].column.setNull(row);
            }
            for (uint32_t element = 0; element < row % 4; ++element)
            {
                block.columns[2].column.child(0).append(element);
            }
            block.columns[2].column.closeNestedRow();
        }
        session.database().insert("t", {std::move(block)});
        const auto rowText = [](size_t row)
        {
            std::string text =
                std::to_string(row) + "\t" + (row % 3 == 0 ? "\\N" : textOfRow(row)) + "\t[";
            for (uint32_t element = 0; element < row % 4; ++element)
            {
                text += (element ? "," : "") + std::to_string(element);
            }
            return text + "]\n";
        };
        std::string last_rows;
        for (size_t row = kTableRows - 1; row > kTableRows - 60; row -= 10)
        {
            last_rows += rowText(row);
        }
        EXPECT_EQ(
            tsv(session.execute("SELECT * FROM t WHERE k % 10 = 9 ORDER BY k DESC LIMIT 6").block),
            last_rows);
        std::string spread_rows;
        for (size_t row = 7; row < kTableRows; row += 40'000)
        {
            spread_rows += rowText(row);
        }
        EXPECT_EQ(
            tsv(session.execute("SELECT * FROM t WHERE k % 40000 = 7 ORDER BY k LIMIT 10").block),
            spread_rows);
    }
}

}  // namespace
}  // namespace granary::oracle
