// The on-disk format end to end: CREATE, INSERT ... FROM INFILE (TSV), reopen in a new
// Session, query against the naive evaluator; granule skipping on the sort key; damaged part
// files refused with kCorruptedData.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "engine/common/exception.h"
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

namespace fs = std::filesystem;

using testing::TemporaryFolder;

constexpr size_t kRows = 60000;

RowTable visitsRows()
{
    RowTable table = emptyTableFor(kVisitsCreate);
    appendHitsRows(table, kRows, 777);
    return table;
}

/// Creates `visits` (by `create`) in a database folder under `root` and loads it from a TSV
/// file.
fs::path writeVisitsDatabase(const fs::path& root, const RowTable& table,
                             std::string_view create = kVisitsCreate)
{
    fs::create_directories(root);
    const fs::path data = root / "data";
    const fs::path input = root / "visits.tsv";
    std::ofstream(input, std::ios::binary) << toTsv(table);
    Session session(Session::openDatabase(data));
    session.execute(create);
    const QueryResult loaded =
        session.execute("INSERT INTO visits FROM INFILE '" + input.string() + "' FORMAT TSV");
    EXPECT_EQ(loaded.rows_written, table.rows.size());
    return data;
}

/// Compressed parts (the default) and raw ones give the naive evaluator's answers.
class OnDiskFormats : public ::testing::TestWithParam<const char*>
{
};

TEST_P(OnDiskFormats, LoadReopenAndQuery)
{
    const TemporaryFolder directory;
    const RowTable table = visitsRows();
    const fs::path data =
        writeVisitsDatabase(directory.path(), table, std::string(kVisitsCreate) + GetParam());

    Session session(Session::openDatabase(data));
    const std::vector<std::string> queries = {
        // Selective filters: most morsels have no row for the columns only the outputs read.
        "SELECT Title, Referer, ResolutionWidth FROM visits WHERE CounterID = 7 AND "
        "URL LIKE '%google%' ORDER BY Title, Referer, ResolutionWidth",
        "SELECT count(*), sum(ResolutionWidth) FROM visits WHERE WatchID = 0",
        // Filters of one String column: evaluated once per dictionary entry where a granule
        // is coded against the part's dictionary.
        "SELECT count(*), min(SearchPhrase) FROM visits WHERE SearchPhrase <> ''",
        "SELECT SearchPhrase, count(*) AS c FROM visits WHERE SearchPhrase LIKE '%a%' "
        "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 7",
        "SELECT count(*), sum(ResolutionWidth) FROM visits WHERE MobilePhoneModel IN ('iPad', '') "
        "OR "
        "length(MobilePhoneModel) > 5",
        "SELECT count(*), sum(ResolutionWidth), min(EventTime), max(EventDate), "
        "avg(UserID) FROM visits",
        "SELECT SearchPhrase, count(*) AS c, min(URL), count(DISTINCT UserID) FROM visits "
        "WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 20",
        "SELECT CounterID, EventDate, count(*) FROM visits WHERE URL LIKE '%google%' "
        "GROUP BY CounterID, EventDate ORDER BY CounterID, EventDate",
        "SELECT WatchID, Title, EventTime FROM visits WHERE MobilePhoneModel <> '' "
        "ORDER BY EventTime DESC, WatchID LIMIT 15 OFFSET 5",
        "SELECT UserID FROM visits WHERE UserID = 435090932899640449",
    };
    // The second pass reads compressed columns from the chunks the first one cached.
    for (const char* pass : {"decoding", "from the decoded-chunk cache"})
    {
        for (const std::string& query : queries)
        {
            SCOPED_TRACE(std::string(pass) + ": " + query);
            EXPECT_EQ(differenceForQuery(session, table, query), "");
        }
    }
    const bool compressed = std::string_view(GetParam()).empty();
    DecodedChunkCache& cache = session.database().decodedCache();
    EXPECT_EQ(cache.sizeInBytes() > 0, compressed);
    if (compressed)
    {
        // The filters of SearchPhrase alone ran on codes: every part codes its first chunk.
        const auto table = session.database().table("visits");
        const size_t column = *table->schema().indexOf("SearchPhrase");
        for (const auto& part : table->snapshot()->parts)
        {
            ColumnReadBuffer codes{DataType(TypeId::UInt32)};
            EXPECT_TRUE(part->readCodes(column, 0, std::min(part->rows(), Part::kChunkRows), codes,
                                        nullptr, false));
        }
    }
    // A bound far below the table's decoded size: scans fill their share and read the rest
    // as without the cache, with the same answers.
    cache.setMaxBytes(size_t{1} << 20);
    cache.clear();
    for (const std::string& query : queries)
    {
        SCOPED_TRACE("small cache: " + query);
        EXPECT_EQ(differenceForQuery(session, table, query), "");
        EXPECT_LE(cache.sizeInBytes(), cache.maxBytes());
    }
    // count(URL) scans (count(*) would come from the parts' row counts).
    const QueryResult all = session.execute("SELECT count(URL) FROM visits");
    EXPECT_EQ(all.rows_read, kRows);
    EXPECT_EQ(all.block.columns[0].column.valueAt<uint64_t>(0), kRows);
}

INSTANTIATE_TEST_SUITE_P(OnDisk, OnDiskFormats,
                         ::testing::Values("", " SETTINGS storage_format = 'raw'"),
                         [](const auto& info)
                         { return std::string(info.index == 0 ? "Compressed" : "Raw"); });

TEST(OnDisk, GranuleSkippingReadsLessWithTheSameAnswer)
{
    const TemporaryFolder directory;
    const RowTable table = visitsRows();
    Session session(Session::openDatabase(writeVisitsDatabase(directory.path(), table)));

    const std::string point =
        "SELECT count(*), sum(ResolutionWidth), min(URL) FROM visits "
        "WHERE CounterID = 7";
    EXPECT_EQ(differenceForQuery(session, table, point), "");
    const QueryResult pointed = session.execute(point);
    EXPECT_GT(pointed.rows_read, 0u);
    EXPECT_LT(pointed.rows_read, kRows / 2) << "granules of other counters should be skipped";

    const std::string range =
        "SELECT CounterID, count(*) FROM visits WHERE CounterID >= 3 "
        "AND CounterID < 6 GROUP BY CounterID ORDER BY CounterID";
    EXPECT_EQ(differenceForQuery(session, table, range), "");
    EXPECT_LT(session.execute(range).rows_read, kRows / 2);

    const std::string nothing = "SELECT count(*) FROM visits WHERE CounterID > 62";
    EXPECT_EQ(differenceForQuery(session, table, nothing), "");
    EXPECT_EQ(session.execute(nothing).rows_read, 0u);
}

TEST(OnDisk, ConditionCacheSkipsGranulesWithoutMatchesOnTheNextRun)
{
    const TemporaryFolder directory;
    const RowTable table = visitsRows();
    Session session(Session::openDatabase(writeVisitsDatabase(directory.path(), table)));

    // Not a bare sort-key condition: only the condition cache can skip granules for it.
    const std::string query = "SELECT count(*), min(URL) FROM visits WHERE CounterID + 0 = 7";
    const QueryResult first = session.execute(query);
    const QueryResult second = session.execute(query);
    EXPECT_LT(second.rows_read, first.rows_read) << "the second run should skip granules";
    EXPECT_EQ(differenceForQuery(session, table, query), "");

    QueryOptions without_cache;
    without_cache.settings["use_query_condition_cache"] = "0";
    EXPECT_EQ(session.execute(query, without_cache).rows_read, kRows);
    session.dropCaches();
    EXPECT_EQ(session.execute(query).rows_read, kRows);
}

TEST(OnDisk, FiltersOfADictionaryCodedNullableStringSeeItsNulls)
{
    const TemporaryFolder directory;
    Session session(Session::openDatabase(directory.path() / "data"));
    session.execute("CREATE TABLE n (k UInt32, s Nullable(String)) ENGINE = MergeTree ORDER BY k");
    // 50 short words (a dictionary-coded column), empty strings and NULLs; counted here.
    std::mt19937 random(3);
    std::ofstream tsv(directory.path() / "n.tsv", std::ios::binary);
    uint64_t nulls = 0;
    uint64_t empty = 0;
    uint64_t words = 0;
    uint64_t starting_w1 = 0;
    for (uint32_t k = 0; k < 40000; ++k)
    {
        const uint32_t draw = random() % 10;
        const std::string word = "w" + std::to_string(random() % 50);
        nulls += draw == 0;
        empty += draw >= 1 && draw < 5;
        words += draw >= 5;
        starting_w1 += draw >= 5 && word.starts_with("w1");
        tsv << k << '\t' << (draw == 0 ? "\\N" : draw < 5 ? "" : word) << '\n';
    }
    tsv.close();
    session.execute("INSERT INTO n FROM INFILE '" + (directory.path() / "n.tsv").string() +
                    "' FORMAT TSV");
    const std::vector<std::pair<std::string, uint64_t>> expected = {
        {"s IS NULL", nulls},
        {"s = ''", empty},
        {"s <> ''", words},
        {"s IS NOT NULL", empty + words},
        {"s LIKE 'w1%'", starting_w1},
        {"coalesce(s, 'x') = 'x'", nulls}};
    for (int pass = 0; pass < 2; ++pass)  // decoding, then from the decoded-chunk cache
    {
        for (const auto& [condition, count] : expected)
        {
            const QueryResult result = session.execute("SELECT count(*) FROM n WHERE " + condition);
            EXPECT_EQ(result.block.columns[0].column.valueAt<uint64_t>(0), count) << condition;
        }
    }
}

/// The largest file of the table's parts: a column of long strings.
fs::path largestPartFile(const fs::path& data)
{
    fs::path largest;
    uintmax_t largest_size = 0;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(data))
    {
        if (entry.is_regular_file() && entry.file_size() > largest_size &&
            entry.path().filename() != "manifest.json" && entry.path().filename() != "schema.json")
        {
            largest = entry.path();
            largest_size = entry.file_size();
        }
    }
    return largest;
}

void expectCorruptionReported(const fs::path& data, const fs::path& damaged)
{
    try
    {
        Session session(Session::openDatabase(data));
        session.execute("SELECT * FROM visits ORDER BY WatchID LIMIT 3");
        session.execute(
            "SELECT sum(length(URL)), sum(length(Referer)), sum(length(Title)), "
            "sum(length(SearchPhrase)) FROM visits");
        ADD_FAILURE() << "damaged " << damaged << " was read without an error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(errorCodeName(error.code()), errorCodeName(ErrorCode::kCorruptedData))
            << error.what();
        EXPECT_NE(std::string(error.what()).find(damaged.filename().string()), std::string::npos)
            << "the message should name the file: " << error.what();
    }
}

TEST(OnDisk, TruncatedColumnFileIsCorruptedData)
{
    const TemporaryFolder directory;
    RowTable table = emptyTableFor(kVisitsCreate);
    appendHitsRows(table, 20000, 99);
    const fs::path data = writeVisitsDatabase(directory.path(), table);
    const fs::path victim = largestPartFile(data);
    ASSERT_FALSE(victim.empty());
    fs::resize_file(victim, fs::file_size(victim) / 2);
    expectCorruptionReported(data, victim);
}

TEST(OnDisk, FlippedBytesInAColumnFileAreCorruptedData)
{
    const TemporaryFolder directory;
    RowTable table = emptyTableFor(kVisitsCreate);
    appendHitsRows(table, 20000, 98);
    const fs::path data = writeVisitsDatabase(directory.path(), table);
    const fs::path victim = largestPartFile(data);
    ASSERT_FALSE(victim.empty());
    {
        std::fstream file(victim, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(fs::file_size(victim) / 2));
        file.write("\x01\x02\x03\x04", 4);
    }
    expectCorruptionReported(data, victim);
}

}  // namespace
}  // namespace granary::oracle
