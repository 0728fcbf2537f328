#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/storage/storage_files.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

/// Events a single-threaded insert of `blocks` raises, and the index of the last one before
/// its manifest is published.
std::pair<size_t, size_t> countWriteEvents(const std::vector<Block>& blocks)
{
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    createTable(*database, parseCreate(kAllTypesTable));
    size_t events = 0;
    size_t before_publish = 0;
    setStorageWriteHookForTesting(
        [&](const std::filesystem::path& path)
        {
            ++events;
            if (path.filename() == "manifest.json" && before_publish == 0)
            {
                before_publish = events;
            }
        });
    database->insert("t", blocks);
    setStorageWriteHookForTesting(nullptr);
    return {events, before_publish};
}

/// The child stops at each write event until the parent lets it go on.
[[noreturn]] void insertStepByStep(const std::filesystem::path& folder,
                                   const std::vector<Block>& blocks, int to_parent, int to_child)
{
    auto database = Database::open(folder);
    setStorageWriteHookForTesting(
        [&](const std::filesystem::path&)
        {
            char byte = 1;
            if (::write(to_parent, &byte, 1) != 1 || ::read(to_child, &byte, 1) != 1)
            {
                ::_exit(3);
            }
        });
    database->insert("t", blocks);
    ::_exit(0);
}

TEST(InterruptedWrite, KilledInsertLeavesPreviousDataAndNoTrace)
{
    TemporaryFolder folder;
    const std::vector<Block> base = {randomAllTypesBlock(3000, 11)};
    {
        auto database = Database::open(folder.path());
        createTable(*database, parseCreate(kAllTypesTable));
        database->insert("t", base);
    }
    const std::vector<std::string> expected = sortedRows(base);
    // Two blocks make two parts: kills land inside the first part, between parts, and just
    // before the manifest that would publish them.
    const std::vector<Block> interrupted = {randomAllTypesBlock(2000, 12),
                                            randomAllTypesBlock(2000, 13)};
    const auto [events, before_publish] = countWriteEvents(interrupted);
    ASSERT_GT(before_publish, 10u);
    std::vector<size_t> kill_points;
    for (size_t point = 1; point < before_publish; point += 3)
    {
        kill_points.push_back(point);
    }
    kill_points.push_back(before_publish);

    for (const size_t kill_at : kill_points)
    {
        int to_parent[2], to_child[2];
        ASSERT_EQ(::pipe(to_parent), 0);
        ASSERT_EQ(::pipe(to_child), 0);
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0)
        {
            insertStepByStep(folder.path(), interrupted, to_parent[1], to_child[0]);
        }
        for (size_t event = 1; event <= kill_at; ++event)
        {
            char byte;
            ASSERT_EQ(::read(to_parent[0], &byte, 1), 1) << "child ended before event " << event;
            if (event < kill_at)
            {
                ASSERT_EQ(::write(to_child[1], &byte, 1), 1);
            }
        }
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status));
        for (int fd : {to_parent[0], to_parent[1], to_child[0], to_child[1]})
        {
            ::close(fd);
        }

        auto database = Database::open(folder.path());
        const auto snapshot = database->table("t")->snapshot();
        EXPECT_EQ(snapshot->rows(), 3000u) << "killed at event " << kill_at;
        EXPECT_EQ(sortedRows(*snapshot), expected) << "killed at event " << kill_at;
        size_t part_folders = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(folder.path()))
        {
            const std::string name = entry.path().filename().string();
            EXPECT_FALSE(name.starts_with("tmp")) << entry.path();
            part_folders += name.starts_with("part_");
        }
        EXPECT_EQ(part_folders, 1u) << "killed at event " << kill_at;
    }
}

}  // namespace
}  // namespace granary::storage_test
