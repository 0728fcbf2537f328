#include "programs/scale/outside_phases.h"

#include <gtest/gtest.h>

namespace granary::scale
{
namespace
{

ScalingRow rowOf(const std::string& query, size_t threads, double seconds, double outside)
{
    ScalingRow row;
    row.query = query;
    row.threads = threads;
    row.best_seconds = seconds;
    row.outside_phases_seconds = outside;
    return row;
}

/// Shares chosen exact in binary: 1.5625%, 7.8125% (over 5%), 12.5% (over), 1.5625%, and a
/// failed row that has no time to share.
std::vector<OutsidePhasesRow> sampleTable()
{
    ScalingRow failed = rowOf("Q2", 16, 0, 0);
    failed.error = "memory limit";
    return outsidePhasesTable(std::vector<ScalingRow>{
        rowOf("Q0", 1, 0.5, 0.0078125), rowOf("Q0", 16, 0.125, 0.009765625),
        rowOf("Q1", 1, 0.25, 0.03125), rowOf("Q1", 16, 0.0625, 0.0009765625), failed});
}

TEST(OutsidePhases, ShareOfTheQueryWallPerRow)
{
    const std::vector<OutsidePhasesRow> table = sampleTable();
    ASSERT_EQ(table.size(), 4u);
    EXPECT_EQ(table[0].share(), 0.015625);
    EXPECT_FALSE(table[0].overLimit());
    EXPECT_EQ(table[1].query, "Q0");
    EXPECT_EQ(table[1].threads, 16u);
    EXPECT_EQ(table[1].share(), 0.078125);
    EXPECT_TRUE(table[1].overLimit());
    EXPECT_EQ(table[2].share(), 0.125);
    EXPECT_TRUE(table[2].overLimit());
    EXPECT_FALSE(table[3].overLimit());
}

TEST(OutsidePhases, CsvInMillisecondsAndPercent)
{
    EXPECT_EQ(outsidePhasesCsv(sampleTable()),
              "query,threads,query_ms,outside_ms,outside_percent,over_5_percent\n"
              "Q0,1,500,7.8125,1.5625,0\n"
              "Q0,16,125,9.765625,7.8125,1\n"
              "Q1,1,250,31.25,12.5,1\n"
              "Q1,16,62.5,0.9765625,1.5625,0\n");
}

TEST(OutsidePhases, SummaryNamesTheLargestSharePerThreadCount)
{
    EXPECT_EQ(outsidePhasesSummary(sampleTable()),
              "time outside reported phases, largest share per thread count: 1:12.5% (Q1) "
              "16:7.8% (Q0); 2 of 4 query x thread rows above 5%\n");
}

}  // namespace
}  // namespace granary::scale
