#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "programs/clickbench/benchmark_report.h"

namespace granary::clickbench
{
namespace
{

SuiteRun twoQuerySuite()
{
    SuiteRun suite;
    suite.engine = "granary";
    QueryRun ok;
    ok.sql = "SELECT 1";
    ok.seconds = {0.5, 0.25, 0.125};
    ok.rows = 1;
    QueryRun failed;
    failed.sql = "SELECT x";
    failed.seconds = {std::nullopt, std::nullopt, std::nullopt};
    failed.error = "unknown column x";
    suite.queries = {ok, failed};
    return suite;
}

TEST(ClickBenchJson, ParsesBackWithTheFieldsClickBenchValidates)
{
    ReportInfo info;
    info.date = "2026-01-02";
    info.machine = "test-box";
    info.tags = {"C++", "column-oriented"};
    info.load_time_seconds = 1.5;
    info.data_size_bytes = 123456789012;
    info.comment = "unit test";
    const std::string text = clickBenchJson(twoQuerySuite(), info).dump(2);

    const nlohmann::json parsed = nlohmann::json::parse(text);
    EXPECT_EQ(parsed.at("system"), "Granary");
    EXPECT_EQ(parsed.at("date"), "2026-01-02");
    EXPECT_EQ(parsed.at("machine"), "test-box");
    EXPECT_EQ(parsed.at("cluster_size"), 1);
    EXPECT_EQ(parsed.at("proprietary"), "no");
    EXPECT_EQ(parsed.at("hardware"), "cpu");
    EXPECT_EQ(parsed.at("tuned"), "no");
    EXPECT_EQ(parsed.at("tags"), (nlohmann::json{"C++", "column-oriented"}));
    EXPECT_DOUBLE_EQ(parsed.at("load_time").get<double>(), 1.5);
    EXPECT_EQ(parsed.at("data_size").get<uint64_t>(), 123456789012u);
    EXPECT_TRUE(parsed.at("concurrent_qps").is_null());
    EXPECT_EQ(parsed.at("comment"), "unit test");
    const nlohmann::json& result = parsed.at("result");
    ASSERT_EQ(result.size(), 2u);
    EXPECT_EQ(result[0], (nlohmann::json{0.5, 0.25, 0.125}));
    ASSERT_EQ(result[1].size(), 3u);
    for (const auto& run : result[1])
    {
        EXPECT_TRUE(run.is_null());
    }
}

TEST(ClickBenchJson, DateIsIsoFormatted)
{
    const std::string date = todayDate();
    ASSERT_EQ(date.size(), 10u);
    EXPECT_EQ(date[4], '-');
    EXPECT_EQ(date[7], '-');
}

TEST(GeometricMean, KnownValues)
{
    EXPECT_FALSE(geometricMean({}).has_value());
    EXPECT_NEAR(*geometricMean({2.0, 8.0}), 4.0, 1e-12);
    EXPECT_NEAR(*geometricMean({0.001, 0.1, 10.0}), 0.1, 1e-12);
    // The failed query is left out; the best of 0.5, 0.25, 0.125 is 0.125.
    EXPECT_NEAR(*geometricMeanOfBest(twoQuerySuite()), 0.125, 1e-12);
}

TEST(SuiteTable, ListsRunsRowsErrorsAndTheMean)
{
    std::ostringstream out;
    printSuiteTable(out, twoQuerySuite());
    const std::string text = out.str();
    EXPECT_NE(text.find("0.2500"), std::string::npos) << text;
    EXPECT_NE(text.find("error: unknown column x"), std::string::npos) << text;
    EXPECT_NE(text.find("geometric mean of the best times 0.1250 s over 1 queries (1 failed)"),
              std::string::npos)
        << text;
}

TEST(ComparisonTable, RatiosAndOutcomes)
{
    SuiteRun granary = twoQuerySuite();
    SuiteRun duckdb = twoQuerySuite();
    duckdb.engine = "duckdb";
    duckdb.queries[0].seconds = {0.5, 0.5, 0.5};
    std::vector<std::optional<Comparison>> comparisons = {Comparison{}, std::nullopt};
    std::ostringstream out;
    printComparisonTable(out, granary, duckdb, comparisons);
    const std::string text = out.str();
    EXPECT_NE(text.find("0.25"), std::string::npos) << text;
    EXPECT_NE(text.find("equal"), std::string::npos) << text;
    EXPECT_NE(text.find("error: granary: unknown column x"), std::string::npos) << text;
    EXPECT_NE(text.find("best-time ratios: 0.250 over 1 queries"), std::string::npos) << text;
}

}  // namespace
}  // namespace granary::clickbench
