#include "programs/scale/inflation_summary.h"

#include <gtest/gtest.h>

#include <sstream>

#include "inflation_test_data.h"
#include "programs/scale/inflation_csv.h"

namespace granary::scale
{
namespace
{

std::vector<InflationSummaryRow> sampleSummary()
{
    std::istringstream in(testing::kSampleInflationCsv);
    return summariseInflation(readInflationCsv(in, "sample.csv"));
}

TEST(InflationSummary, GeometricMeanMaximumAndBigQueriesOverTarget)
{
    const std::vector<InflationSummaryRow> summary = sampleSummary();
    ASSERT_EQ(summary.size(), 4u);
    const InflationSummaryRow& at16 = summary[1];
    EXPECT_EQ(at16.suite, "default");
    EXPECT_EQ(at16.threads, 16u);
    EXPECT_EQ(at16.queries, 3u);
    // (1.2 · 1.5 · 1.3)^(1/3) = 2.34^(1/3), worked out by hand.
    EXPECT_NEAR(at16.geometric_mean, 1.3276144, 1e-6);
    EXPECT_EQ(at16.max_inflation, 1.5);
    EXPECT_EQ(at16.max_query, "Q1");
    // Q0 (60 ms) and Q2 (80 ms) are big; only Q2's 1.3 is above 1.25 (Q1's 1.5 is a 10 ms query).
    EXPECT_EQ(at16.big_queries, 2u);
    EXPECT_EQ(at16.big_over_target, std::vector<std::string>{"Q2"});
}

TEST(InflationSummary, OneThreadRowsAndMissingFigures)
{
    const std::vector<InflationSummaryRow> summary = sampleSummary();
    EXPECT_EQ(summary[0].threads, 1u);
    EXPECT_DOUBLE_EQ(summary[0].geometric_mean, 1.0);
    EXPECT_EQ(summary[0].big_queries, 2u);
    EXPECT_TRUE(summary[0].big_over_target.empty());
    // official's Q0 has no one_thread_ms (not big) and no inflation at 16 threads.
    EXPECT_EQ(summary[2].suite, "official");
    EXPECT_EQ(summary[2].queries, 1u);
    EXPECT_EQ(summary[2].big_queries, 0u);
    EXPECT_EQ(summary[3].queries, 0u);
}

TEST(InflationSummary, CsvAndTable)
{
    const std::vector<InflationSummaryRow> summary = sampleSummary();
    const std::string csv = inflationSummaryCsv(summary);
    EXPECT_NE(csv.find("suite,threads,queries,geometric_mean,max_inflation,max_query,"
                       "big_queries,big_over_target,big_over_target_queries\n"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("default,16,3,1.3276,1.5000,Q1,2,1,Q2\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("official,16,0,,,,0,0,\n"), std::string::npos) << csv;

    const std::string table = inflationSummaryTable(summary);
    EXPECT_NE(table.find("default at 16 threads: geometric mean 1.328x (MISSES 1.1x), 1 of 2 "
                         "queries >= 50 ms above 1.25x: Q2"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("official at 16 threads: no inflation measured"), std::string::npos)
        << table;
}

}  // namespace
}  // namespace granary::scale
