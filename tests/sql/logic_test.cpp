// The SQL logic test corpus (tests/sql/logic/*.test, format in programs/sqllogic/logic_file.h):
// every file on a fresh in-memory database, at one thread and oversubscribed (7 and 64 threads
// on two cores). Expected rows
// come from DuckDB (`granary sqllogic --generate`) or, for ClickHouse semantics, by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "programs/sqllogic/logic_runner.h"

namespace granary::sqllogic
{
namespace
{

std::vector<std::filesystem::path> corpusFiles()
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(GRANARY_SQL_LOGIC_DIR))
    {
        if (entry.path().extension() == ".test")
        {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

class SqlLogicTest : public testing::TestWithParam<std::filesystem::path>
{
};

TEST_P(SqlLogicTest, PassesAtOneThreadAndOversubscribed)
{
    const LogicFile file = readLogicFile(GetParam());
    ASSERT_FALSE(file.records.empty());
    for (const size_t threads : {size_t{1}, size_t{7}, size_t{64}})
    {
        const std::vector<Failure> failures = runOnGranary(file, threads);
        EXPECT_TRUE(failures.empty()) << threads << " threads:\n"
                                      << describeFailures(file, failures);
    }
}

/// Files are kept in the form `granary sqllogic --generate` writes, so that regenerating them
/// changes only answers.
TEST_P(SqlLogicTest, FileIsCanonical)
{
    std::ifstream in(GetParam());
    std::ostringstream text;
    text << in.rdbuf();
    EXPECT_EQ(formatLogicFile(parseLogicFile(text.str(), GetParam())), text.str());
}

INSTANTIATE_TEST_SUITE_P(Corpus, SqlLogicTest, testing::ValuesIn(corpusFiles()),
                         [](const testing::TestParamInfo<std::filesystem::path>& info)
                         { return info.param.stem().string(); });

/// The corpus covers what it must: 400 records, 100 of them statements that must fail.
TEST(SqlLogicCorpus, HoldsFourHundredRecordsAndAHundredErrors)
{
    size_t records = 0;
    size_t errors = 0;
    for (const std::filesystem::path& path : corpusFiles())
    {
        for (const Record& record : readLogicFile(path).records)
        {
            ++records;
            errors += record.kind == Record::Kind::kStatementError;
        }
    }
    EXPECT_GE(records, 400u);
    EXPECT_GE(errors, 100u);
}

TEST(SqlLogicFormat, MalformedRecordsNameTheirLine)
{
    EXPECT_FALSE(parseLogicFile("query rowsort\nSELECT 1\n", "q.test").records[0].has_expected);
    EXPECT_THROW(parseLogicFile("statement error\nSELECT\n", "q.test"), std::runtime_error);
    try
    {
        parseLogicFile("statement ok\nSELECT 1\n\nquery sometimes\nSELECT 1\n----\n1\n", "q.test");
        FAIL() << "no error";
    }
    catch (const std::runtime_error& error)
    {
        EXPECT_NE(std::string(error.what()).find("q.test:4"), std::string::npos) << error.what();
    }
}

TEST(SqlLogicFormat, ReportsWrongAnswersAndMissingErrors)
{
    const LogicFile file = parseLogicFile(
        "query nosort\nSELECT 1\n----\n2\n\nstatement error 62\nSELECT 1\n\n"
        "statement error 47 Unknown column\nSELECT nope\n",
        "q.test");
    const std::vector<Failure> failures = runOnGranary(file, 1);
    ASSERT_EQ(failures.size(), 2u) << describeFailures(file, failures);
    EXPECT_EQ(failures[0].line, 1u);
    EXPECT_EQ(failures[1].line, 6u);
}

}  // namespace
}  // namespace granary::sqllogic
