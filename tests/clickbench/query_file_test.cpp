#include "programs/clickbench/query_file.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "engine/common/exception.h"
#include "engine/sql/parser.h"

namespace granary::clickbench
{
namespace
{

std::filesystem::path clickBenchDir()
{
    const char* dir = std::getenv("GRANARY_CLICKBENCH_DIR");
    return dir != nullptr ? std::filesystem::path(dir)
                          : std::filesystem::path(GRANARY_CLICKBENCH_DIR);
}

TEST(SplitQueries, SemicolonsOutsideQuotesAndComments)
{
    const auto queries = splitQueries(
        "-- header; with a semicolon\n"
        "SELECT 'a;b' FROM t;\n"
        "/* block; comment */ SELECT \"x;y\" FROM t WHERE s LIKE '%\\';%';\n"
        "  SELECT 1  ;\n"
        "-- trailing comment only\n");
    ASSERT_EQ(queries.size(), 3u);
    EXPECT_EQ(queries[0], "SELECT 'a;b' FROM t");
    EXPECT_EQ(queries[1], "SELECT \"x;y\" FROM t WHERE s LIKE '%\\';%'");
    EXPECT_EQ(queries[2], "SELECT 1");
}

TEST(SplitQueries, OnePerLineWithoutSemicolons)
{
    const auto queries = splitQueries("SELECT 1\n\n-- note\nSELECT 2 FROM t\n");
    EXPECT_EQ(queries, (std::vector<std::string>{"SELECT 1", "SELECT 2 FROM t"}));
}

TEST(DefaultQueries, EveryQueryParsesAsGranarySql)
{
    const auto queries = splitQueries(defaultQueries());
    EXPECT_GE(queries.size(), 20u);
    EXPECT_LE(queries.size(), 30u);
    for (const std::string& query : queries)
    {
        EXPECT_NO_THROW(sql::parseSelect(query)) << query;
    }
}

TEST(QueryFile, MissingFileIsNamed)
{
    try
    {
        readQueryFile("/nonexistent/queries.sql");
        FAIL() << "expected an exception";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kCannotOpenFile);
        EXPECT_NE(std::string(error.what()).find("/nonexistent/queries.sql"), std::string::npos);
    }
}

TEST(QueryFile, TwinNamedAfterTheFile)
{
    const auto dir = std::filesystem::temp_directory_path() / "granary_clickbench_twin_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "suite.sql") << "SELECT 1;";
    EXPECT_TRUE(duckDbTwinOf(dir / "suite.sql").empty());
    std::ofstream(dir / "suite.duckdb.sql") << "SELECT 1;";
    EXPECT_EQ(duckDbTwinOf(dir / "suite.sql"), dir / "suite.duckdb.sql");
    std::filesystem::remove_all(dir);
}

TEST(QueryFile, OfficialSuiteHas43QueriesAndADuckDbTwin)
{
    const auto queries_file = clickBenchDir() / "clickhouse-queries.sql";
    if (!std::filesystem::exists(queries_file))
    {
        GTEST_SKIP() << queries_file << " is absent";
    }
    EXPECT_EQ(readQueryFile(queries_file).size(), 43u);
    const auto twin = duckDbTwinOf(queries_file);
    EXPECT_EQ(twin, clickBenchDir() / "duckdb-queries.sql");
    EXPECT_EQ(readQueryFile(twin).size(), 43u);
}

}  // namespace
}  // namespace granary::clickbench
