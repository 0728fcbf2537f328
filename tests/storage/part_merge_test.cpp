// Merges of small parts: the rows a query sees are the same before and after (memory, raw and
// compressed parts, across a reopen); background merges beside concurrent inserts and readers
// keep every acknowledged row and bound the part count; a process killed (SIGKILL) at random
// points while merging and inserting loses no acknowledged insert and keeps no partial one.
#include "engine/storage/part_merge.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

constexpr size_t kBatchRows = 100;

/// Batch `batch` of rows: ids batch * kBatchRows + i, a string and an array per row.
std::string batchTsv(size_t batch)
{
    std::string tsv;
    for (size_t i = 0; i < kBatchRows; ++i)
    {
        const size_t id = batch * kBatchRows + i;
        tsv += std::to_string(id % 7) + "\t" + std::to_string(id) + "\tname " +
               std::to_string(id % 13) + "\n";
    }
    return tsv;
}

void insertBatch(Session& session, size_t batch)
{
    QueryOptions options;
    const std::string tsv = batchTsv(batch);
    options.insert_bytes = tsv;
    session.execute("INSERT INTO t FORMAT TSV", options);
}

std::string allRows(Session& session)
{
    std::ostringstream out;
    writeBlock(session.execute("SELECT * FROM t ORDER BY id").block, OutputFormat::kTSV, out);
    return out.str();
}

class PartMerge : public ::testing::TestWithParam<std::string_view>
{
protected:
    std::shared_ptr<Database> open()
    {
        return GetParam() == "memory" ? Database::openInMemory() : Database::open(folder_.path());
    }
    void create(Session& session)
    {
        const std::string format = GetParam() == "memory" ? "compressed" : std::string(GetParam());
        session.execute(
            "CREATE TABLE t (k UInt8, id UInt64, s String) ORDER BY (k, id) "
            "SETTINGS storage_format = '" +
            format + "'");
    }

    TemporaryFolder folder_;
};

TEST_P(PartMerge, MergedPartsHoldTheSameRows)
{
    const std::shared_ptr<Database> database = open();
    Session session(database);
    create(session);
    for (size_t batch = 0; batch < 20; ++batch)
    {
        insertBatch(session, batch);
    }
    const std::string before = allRows(session);
    Table& table = *database->table("t");
    ASSERT_EQ(table.snapshot()->parts.size(), 20u);
    MergePolicy policy;
    policy.max_small_parts = 4;
    policy.max_merged_rows = 700;  // Runs of 7 parts: 20 parts become 3 + a short run.
    size_t merges = 0;
    while (mergeSmallParts(table, policy))
    {
        ++merges;
    }
    EXPECT_GE(merges, 2u);
    EXPECT_LE(table.snapshot()->parts.size(), 4u);
    EXPECT_EQ(allRows(session), before);
    if (GetParam() != "memory")
    {
        size_t part_folders = 0;
        for (const auto& entry : std::filesystem::directory_iterator(*table.directory()))
        {
            part_folders += entry.path().filename().string().starts_with("part_") ? 1 : 0;
        }
        EXPECT_EQ(part_folders, table.snapshot()->parts.size());
        const size_t parts = table.snapshot()->parts.size();
        Session reopened(Database::open(folder_.path()));
        EXPECT_EQ(allRows(reopened), before);
        EXPECT_EQ(reopened.database().table("t")->snapshot()->parts.size(), parts);
    }
}

TEST_P(PartMerge, BackgroundMergesBesideInsertersAndReaders)
{
    const std::shared_ptr<Database> database = open();
    Session setup(database);
    create(setup);
    MergePolicy policy;
    policy.max_small_parts = 6;
    database->startBackgroundMerges(policy);
    constexpr size_t kWriters = 4;
    constexpr size_t kBatchesPerWriter = 60;
    std::atomic<bool> writing{true};
    std::atomic<size_t> reader_errors{0};
    std::thread reader(
        [&]
        {
            Session session(database);
            while (writing)
            {
                const Block counted =
                    session.execute("SELECT count(), count(DISTINCT id) FROM t").block;
                const uint64_t rows = counted.columns[0].column.valueAt<uint64_t>(0);
                // Whole batches only, and no row twice (a merge never shows both sides).
                if (rows % kBatchRows != 0 ||
                    counted.columns[1].column.valueAt<uint64_t>(0) != rows)
                {
                    ++reader_errors;
                }
            }
        });
    std::vector<std::thread> writers;
    for (size_t writer = 0; writer < kWriters; ++writer)
    {
        writers.emplace_back(
            [&, writer]
            {
                Session session(database);
                for (size_t i = 0; i < kBatchesPerWriter; ++i)
                {
                    insertBatch(session, writer * kBatchesPerWriter + i);
                }
            });
    }
    for (std::thread& writer : writers)
    {
        writer.join();
    }
    // The merger catches up: at most the allowed small parts remain.
    for (int wait = 0; wait < 200 && database->table("t")->snapshot()->parts.size() > 6; ++wait)
    {
        database->startBackgroundMerges(policy);  // Already running: a no-op.
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    writing = false;
    reader.join();
    EXPECT_EQ(reader_errors.load(), 0u);
    EXPECT_GT(database->backgroundMerges(), 0u);
    EXPECT_LE(database->table("t")->snapshot()->parts.size(), 6u);
    const Block counted = setup.execute("SELECT count(), sum(id) FROM t").block;
    const uint64_t rows = kWriters * kBatchesPerWriter * kBatchRows;
    EXPECT_EQ(counted.columns[0].column.valueAt<uint64_t>(0), rows);
    EXPECT_EQ(counted.columns[1].column.valueAt<uint64_t>(0), rows * (rows - 1) / 2);
}

INSTANTIATE_TEST_SUITE_P(Storage, PartMerge, ::testing::Values("memory", "raw", "compressed"));

/// The child: inserts batches into a table whose small parts a background thread merges all
/// the time, writing each acknowledged batch number to `acknowledged` (the page cache
/// survives SIGKILL). No oneTBB code runs here (the parent's workers do not exist in a forked
/// child): no queries, blocks inserted on one thread.
[[noreturn]] void insertUntilKilled(const std::filesystem::path& directory,
                                    const std::filesystem::path& acknowledged)
{
    const std::shared_ptr<Database> database = Database::open(directory);
    MergePolicy policy;
    policy.max_small_parts = 2;
    database->startBackgroundMerges(policy);
    size_t batch = database->table("t")->snapshot()->rows() / kBatchRows;
    for (;; ++batch)
    {
        Block block = database->table("t")->schema().emptyBlock();
        for (size_t i = 0; i < kBatchRows; ++i)
        {
            const uint64_t id = batch * kBatchRows + i;
            block.columns[0].column.append<uint8_t>(static_cast<uint8_t>(id % 7));
            block.columns[1].column.append<uint64_t>(id);
            block.columns[2].column.appendString("name " + std::to_string(id % 13));
        }
        std::vector<Block> blocks;
        blocks.push_back(std::move(block));
        database->insert("t", std::move(blocks));
        // Written aside and renamed: a kill between truncating and writing must not read as 0.
        const std::filesystem::path written = acknowledged.string() + ".tmp";
        std::ofstream(written, std::ios::trunc) << batch + 1 << std::flush;
        std::filesystem::rename(written, acknowledged);
    }
}

TEST(PartMergeCrash, SigkillDuringMergesLosesNoAcknowledgedInsert)
{
    TemporaryFolder folder;
    const std::filesystem::path acknowledged = folder.path().string() + ".acknowledged";
    {
        Session session(Database::open(folder.path()));
        session.execute("CREATE TABLE t (k UInt8, id UInt64, s String) ORDER BY (k, id)");
    }
    std::mt19937 random(11);
    for (int round = 0; round < 8; ++round)
    {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0)
        {
            insertUntilKilled(folder.path(), acknowledged);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100 + random() % 400));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        size_t acked = 0;
        std::ifstream(acknowledged) >> acked;
        Session session(Database::open(folder.path()));
        const Block counted =
            session.execute("SELECT count(), count(DISTINCT id), max(id) FROM t").block;
        const uint64_t rows = counted.columns[0].column.valueAt<uint64_t>(0);
        // Every acknowledged batch, at most the one in flight besides, each whole, none twice.
        EXPECT_GE(rows, acked * kBatchRows) << "round " << round;
        EXPECT_LE(rows, (acked + 1) * kBatchRows) << "round " << round;
        EXPECT_EQ(rows % kBatchRows, 0u) << "round " << round;
        EXPECT_EQ(counted.columns[1].column.valueAt<uint64_t>(0), rows) << "round " << round;
        if (rows > 0)
        {
            EXPECT_EQ(counted.columns[2].column.valueAt<uint64_t>(0), rows - 1);
        }
    }
    std::filesystem::remove(acknowledged);
    std::filesystem::remove(acknowledged.string() + ".tmp");
}

}  // namespace
}  // namespace granary::storage_test
