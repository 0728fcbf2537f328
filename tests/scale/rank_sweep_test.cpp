// The rank sweep's reading of mpi-query reports, its node model against hand-computed
// answers, and its CSV, table and SVG.
#include "programs/scale/rank_sweep.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/common/exception.h"
#include "xml_check.h"

namespace granary::scale
{
namespace
{

/// A report as `granary mpi-query --json` writes it: two ranks, one query that ran and one
/// that failed.
nlohmann::json sampleReport(double seconds)
{
    return nlohmann::json::parse(R"([
      {"query": 1, "sql": "SELECT k, count(*) FROM t GROUP BY k", "seconds": )" +
                                 std::to_string(seconds) + R"(, "rows": 3, "threads": 2,
       "exchange": {"ranks": 2, "rounds": 1, "imbalance": 1.5,
         "per_rank": [
           {"state_bytes": 1000, "result_bytes": 10, "bytes_sent": 600, "bytes_received": 400,
            "local_seconds": 0.3, "exchange_seconds": 0.1},
           {"state_bytes": 800, "result_bytes": 10, "bytes_sent": 410, "bytes_received": 610,
            "local_seconds": 0.1, "exchange_seconds": 0.25}]}},
      {"query": 2, "sql": "SELECT nosuch FROM t", "error": "rank 0: no column \"nosuch\""}
    ])");
}

TEST(RankSweep, ReadsEveryRanksFigures)
{
    const std::vector<RankRun> runs = readMpiQueryReport(sampleReport(0.5), 2, 2);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].query, "Q0");
    EXPECT_EQ(runs[0].ranks, 2u);
    EXPECT_EQ(runs[0].threads, 2u);
    EXPECT_DOUBLE_EQ(runs[0].seconds, 0.5);
    EXPECT_DOUBLE_EQ(runs[0].local_work_seconds, 0.4);
    EXPECT_DOUBLE_EQ(runs[0].exchange_seconds, 0.25);  // the slowest rank's
    EXPECT_EQ(runs[0].state_bytes, 1800u);
    EXPECT_EQ(runs[0].bytes_sent, 1010u);
    EXPECT_DOUBLE_EQ(runs[0].imbalance, 1.5);
    EXPECT_EQ(runs[1].query, "Q1");
    EXPECT_EQ(runs[1].error, "rank 0: no column \"nosuch\"");
}

TEST(RankSweep, RefusesWhatIsNotAReport)
{
    EXPECT_THROW(readMpiQueryReport(nlohmann::json::parse(R"([{"sql": "x"}])"), 1, 1),
                 Exception);
    EXPECT_THROW(readMpiQueryReport(nlohmann::json::parse(R"([{"query": 1, "sql": "x",
                                        "seconds": 1, "exchange": {}}])"),
                                    1, 1),
                 Exception);
}

TEST(RankSweep, ModelSharesTheWorkAndSendsTheMeanBytes)
{
    const RankRun run = readMpiQueryReport(sampleReport(0.5), 2, 2)[0];
    // W / P + (bytes sent / ranks) / bandwidth: 0.4 / 16 + 505 / 1000.
    EXPECT_DOUBLE_EQ(predictNodesSeconds(run, 16, 1000), 0.4 / 16 + 0.505);
    EXPECT_DOUBLE_EQ(predictNodesSeconds(run, 1, 1e12), 0.4 + 505e-12);
}

TEST(RankSweep, CsvTableAndSvgCarryEveryShape)
{
    std::vector<RankRun> runs = readMpiQueryReport(sampleReport(0.5), 1, 1);
    for (RankRun& run : readMpiQueryReport(sampleReport(0.25), 2, 1))
    {
        runs.push_back(std::move(run));
    }
    std::ostringstream csv;
    writeRankSweepCsv(runs, {16, 64}, 1e9, csv);
    std::istringstream lines(csv.str());
    std::string header;
    std::getline(lines, header);
    EXPECT_NE(header.find("predicted_seconds_64_nodes"), std::string::npos);
    size_t rows = 0;
    for (std::string line; std::getline(lines, line);)
    {
        ++rows;
    }
    EXPECT_EQ(rows, 4u);
    EXPECT_NE(csv.str().find("\"rank 0: no column \"\"nosuch\"\"\""), std::string::npos);

    const std::string table = rankSweepTable(runs, {16}, 1e9);
    // Q0 at 2x1 took half of its first shape's (1x1) time.
    EXPECT_NE(table.find("2x1: 0.500 over 1 queries"), std::string::npos) << table;
    EXPECT_NE(table.find("failed: rank 0"), std::string::npos);

    const testing::XmlSummary svg =
        testing::checkXml(rankSweepSvg({runs[0], runs[2]}, {16, 64}, 1e9, "test machine"));
    ASSERT_TRUE(svg.well_formed) << svg.problem;
    EXPECT_NE(svg.text.find("model from 2 ranks, 1 thread(s)"), std::string::npos);
}

}  // namespace
}  // namespace granary::scale
