// async_insert=1: concurrent small inserts share parts, every acknowledged row is there,
// wait_for_async_insert=0 returns before the write and the rows land when the queue flushes,
// and a batch that fails fails every insert waiting on it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "engine/common/exception.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

constexpr size_t kRowsPerInsert = 50;

/// kRowsPerInsert rows of (id UInt64) as RowBinary, ids from `first`.
std::string idRows(uint64_t first)
{
    std::string bytes;
    for (uint64_t id = first; id < first + kRowsPerInsert; ++id)
    {
        bytes.append(reinterpret_cast<const char*>(&id), sizeof(id));
    }
    return bytes;
}

QueryOptions asyncOptions(std::string_view data, bool wait)
{
    QueryOptions options;
    options.insert_bytes = data;
    options.settings["async_insert"] = "1";
    options.settings["wait_for_async_insert"] = wait ? "1" : "0";
    options.settings["async_insert_busy_timeout_ms"] = "100";
    return options;
}

class AsyncInsertTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        folder_ = std::filesystem::temp_directory_path() /
                  ("granary_async_insert_" + std::to_string(::getpid()));
        std::filesystem::remove_all(folder_);
    }
    void TearDown() override { std::filesystem::remove_all(folder_); }

    std::filesystem::path folder_;
};

TEST_F(AsyncInsertTest, ConcurrentSmallInsertsShareParts)
{
    const std::shared_ptr<Database> database = Database::open(folder_);
    Session(database).execute("CREATE TABLE t (id UInt64) ORDER BY id");
    constexpr size_t kThreads = 8;
    constexpr size_t kInsertsPerThread = 10;
    std::vector<std::thread> threads;
    for (size_t thread = 0; thread < kThreads; ++thread)
    {
        threads.emplace_back(
            [&, thread]
            {
                Session session(database);
                for (size_t i = 0; i < kInsertsPerThread; ++i)
                {
                    const std::string rows = idRows((thread * kInsertsPerThread + i) * kRowsPerInsert);
                    EXPECT_EQ(session.execute("INSERT INTO t FORMAT RowBinary", asyncOptions(rows, true))
                                  .rows_written,
                              kRowsPerInsert);
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    // Acknowledged means written: every row is there before the queue is gone.
    const uint64_t rows = kThreads * kInsertsPerThread * kRowsPerInsert;
    const Block counted =
        Session(database).execute("SELECT count(), count(DISTINCT id), sum(id) FROM t").block;
    EXPECT_EQ(counted.columns[0].column.valueAt<uint64_t>(0), rows);
    EXPECT_EQ(counted.columns[1].column.valueAt<uint64_t>(0), rows);
    EXPECT_EQ(counted.columns[2].column.valueAt<uint64_t>(0), rows * (rows - 1) / 2);
    // 80 inserts from 8 threads at once: batches of several inserts each.
    EXPECT_LT(database->table("t")->snapshot()->parts.size(), kThreads * kInsertsPerThread / 2);
}

TEST_F(AsyncInsertTest, WithoutWaitingTheRowsLandWhenTheQueueFlushes)
{
    {
        const std::shared_ptr<Database> database = Database::open(folder_);
        Session session(database);
        session.execute("CREATE TABLE t (id UInt64) ORDER BY id");
        const std::string rows = idRows(0);
        QueryOptions options = asyncOptions(rows, false);
        options.settings["async_insert_busy_timeout_ms"] = "60000";
        EXPECT_EQ(session.execute("INSERT INTO t FORMAT RowBinary", options).rows_written,
                  kRowsPerInsert);
        // Not written yet: the batch waits for its minute or for the queue to stop.
        EXPECT_EQ(session.execute("SELECT count() FROM t").block.columns[0].column.valueAt<uint64_t>(0),
                  0u);
    }
    Session reopened(Database::open(folder_));
    EXPECT_EQ(reopened.execute("SELECT count() FROM t").block.columns[0].column.valueAt<uint64_t>(0),
              kRowsPerInsert);
}

TEST_F(AsyncInsertTest, AFailedBatchFailsEveryInsertWaitingOnIt)
{
    const std::shared_ptr<Database> database = Database::open(folder_);
    Session session(database);
    session.execute("CREATE TABLE t (id UInt64) ORDER BY id");
    const std::string rows = idRows(0);
    QueryOptions queued = asyncOptions(rows, false);
    queued.settings["async_insert_busy_timeout_ms"] = "300";
    session.execute("INSERT INTO t FORMAT RowBinary", queued);
    // The table changes under the queued batch: the batch's insert must fail, and the
    // insert that joins it and waits learns so.
    session.execute("DROP TABLE t");
    session.execute("CREATE TABLE t (id UInt32) ORDER BY id");
    std::string narrow;
    for (uint32_t id = 0; id < kRowsPerInsert; ++id)
    {
        narrow.append(reinterpret_cast<const char*>(&id), sizeof(id));
    }
    EXPECT_THROW(session.execute("INSERT INTO t FORMAT RowBinary", asyncOptions(narrow, true)),
                 Exception);
    EXPECT_EQ(session.execute("SELECT count() FROM t").block.columns[0].column.valueAt<uint64_t>(0),
              0u);
}

}  // namespace
}  // namespace granary
