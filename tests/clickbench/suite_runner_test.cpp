#include "programs/clickbench/suite_runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "programs/clickbench/process_io.h"
#include "programs/clickbench/suite_verification.h"

namespace granary::clickbench
{
namespace
{

/// Answers "n" with n rows of n and fails on "fail"; logs what it is asked to do.
class ScriptedEngine final : public QueryEngine
{
public:
    std::string name() const override { return "scripted"; }
    TimedResult run(std::string_view sql) override
    {
        log.push_back("run " + std::string(sql));
        if (sql == "fail")
        {
            throw std::runtime_error("scripted failure");
        }
        const int rows = std::stoi(std::string(sql));
        TimedResult result;
        result.table.column_names = {"n"};
        for (int row = 0; row < rows; ++row)
        {
            result.table.rows.push_back({Value::ofInteger(rows)});
        }
        result.seconds = 0.001 * rows;
        return result;
    }
    void dropCaches() override { log.push_back("drop"); }

    std::vector<std::string> log;
};

TEST(RunSuite, ColdRunAfterDropCachesAndFailuresGoOn)
{
    ScriptedEngine engine;
    std::vector<std::pair<size_t, size_t>> progress;
    const auto runs =
        runSuite(engine, {"2", "fail", "3"}, 2, true,
                 [&](size_t query, size_t run) { progress.emplace_back(query, run); });
    EXPECT_EQ(engine.log, (std::vector<std::string>{"drop", "run 2", "run 2", "drop", "run fail",
                                                    "drop", "run 3", "run 3"}));
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].rows, 2u);
    EXPECT_NEAR(*runs[0].bestSeconds(), 0.002, 1e-12);
    ASSERT_TRUE(runs[0].result.has_value());
    EXPECT_EQ(runs[0].result->rows.size(), 2u);
    EXPECT_EQ(runs[1].error, "scripted failure");
    EXPECT_EQ(runs[1].seconds, (std::vector<std::optional<double>>{std::nullopt, std::nullopt}));
    EXPECT_FALSE(runs[1].bestSeconds().has_value());
    EXPECT_EQ(runs[2].rows, 3u);
    EXPECT_EQ(progress.size(), 5u);
}

TEST(RunSuites, EachRunOfAQueryRunsOnEveryEngineInAlternatingOrder)
{
    ScriptedEngine first;
    ScriptedEngine second;
    std::vector<std::string> order;
    const auto note = [&](std::string engine)
    {
        return [&order, engine](size_t query, size_t run)
        { order.push_back(engine + " " + std::to_string(query) + "." + std::to_string(run)); };
    };
    const std::vector<std::string> queries{"1", "fail", "2"};
    const auto runs =
        runSuites({&first, &second}, {queries, queries}, 2, false, {note("a"), note("b")});
    EXPECT_EQ(order, (std::vector<std::string>{"a 0.0", "b 0.0", "b 0.1", "a 0.1", "a 1.0", "b 1.0",
                                               "a 2.0", "b 2.0", "b 2.1", "a 2.1"}));
    ASSERT_EQ(runs.size(), 2u);
    for (const std::vector<QueryRun>& engine_runs : runs)
    {
        ASSERT_EQ(engine_runs.size(), 3u);
        EXPECT_EQ(engine_runs[0].rows, 1u);
        EXPECT_EQ(engine_runs[1].error, "scripted failure");
        EXPECT_EQ(engine_runs[2].rows, 2u);
    }
    EXPECT_EQ(first.log, second.log);
}

TEST(RunSuites, EachEngineRunsItsOwnTextOfTheSuite)
{
    ScriptedEngine ours;
    ScriptedEngine theirs;
    const auto runs = runSuites({&ours, &theirs}, {{"1", "2"}, {"3", "fail"}}, 1, false, {});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(ours.log, (std::vector<std::string>{"drop", "run 1", "drop", "run 2"}));
    EXPECT_EQ(theirs.log, (std::vector<std::string>{"drop", "run 3", "drop", "run fail"}));
    EXPECT_EQ(runs[0][1].rows, 2u);
    EXPECT_EQ(runs[1][0].rows, 3u);
    EXPECT_EQ(runs[1][1].error, "scripted failure");
    EXPECT_THROW(runSuites({&ours, &theirs}, {{"1", "2"}, {"3"}}, 1, false, {}),
                 std::invalid_argument);
}

/// Reads a file of `bytes` after telling the kernel to drop its cached pages: the read
/// comes from storage.
class FileReadingEngine final : public QueryEngine
{
public:
    FileReadingEngine(std::filesystem::path file, size_t bytes) : file_(std::move(file))
    {
        std::ofstream(file_, std::ios::binary) << std::string(bytes, 'x');
    }
    ~FileReadingEngine() override { std::filesystem::remove(file_); }
    std::string name() const override { return "file reader"; }
    TimedResult run(std::string_view sql) override
    {
        if (sql == "read")
        {
            const int descriptor = ::open(file_.c_str(), O_RDONLY);
            ::fdatasync(descriptor);
            ::posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED);
            std::vector<char> buffer(1 << 20);
            while (::read(descriptor, buffer.data(), buffer.size()) > 0)
            {
            }
            ::close(descriptor);
        }
        return {};
    }
    void dropCaches() override {}

private:
    std::filesystem::path file_;
};

TEST(RunSuite, StorageReadsAreMeasuredPerRun)
{
    ASSERT_TRUE(storageReadBytes().has_value());
    constexpr size_t kFileBytes = 8 << 20;
    // The working folder, not /tmp: a tmpfs has no storage to read from.
    FileReadingEngine engine("suite_runner_test_read.bin", kFileBytes);
    const auto runs = runSuite(engine, {"read", "nothing"}, 2, false, {});
    ASSERT_EQ(runs[0].storage_read_bytes.size(), 2u);
    for (const uint64_t bytes : runs[0].storage_read_bytes)
    {
        EXPECT_GE(bytes, kFileBytes / 2);
    }
    ASSERT_EQ(runs[1].storage_read_bytes.size(), 2u);
    EXPECT_LT(runs[1].storage_read_bytes[1], kFileBytes / 2);
}

TEST(VerifySuites, FailuresAndDifferencesAreCounted)
{
    ScriptedEngine engine;
    SuiteRun ours{"ours", runSuite(engine, {"2", "3", "fail"}, 1, true, {}), 0, {}};
    SuiteRun theirs{"theirs", runSuite(engine, {"2", "4", "1"}, 1, true, {}), 0, {}};
    const auto comparisons = verifySuites(ours, theirs);
    ASSERT_EQ(comparisons.size(), 3u);
    ASSERT_TRUE(comparisons[0]);
    EXPECT_EQ(comparisons[0]->outcome, Comparison::Outcome::kEqual);
    ASSERT_TRUE(comparisons[1]);
    EXPECT_EQ(comparisons[1]->outcome, Comparison::Outcome::kDiffers);
    EXPECT_FALSE(comparisons[2]);
    EXPECT_EQ(countVerificationFailures(ours, theirs, comparisons), 2u);
}

}  // namespace
}  // namespace granary::clickbench
