#include "programs/scale/scaling_csv.h"

#include <gtest/gtest.h>

#include <sstream>

#include "engine/common/exception.h"
#include "row_equality.h"

namespace granary::scale
{
namespace
{

std::vector<ScalingRow> sampleRows()
{
    ScalingRow a;
    a.query = "Q0";
    a.sql = "SELECT count(*), 'a,b' AS \"x\"\nFROM hits";
    a.threads = 1;
    a.runs = 3;
    a.best_seconds = 0.1;
    a.speedup = 1;
    a.efficiency = 1;
    a.work_seconds = 1e-9;
    a.span_seconds = 1.0 / 3.0;
    a.phases[0] = {0.25, 0.5, 0.125, 17};
    a.phases[2] = {1e-7, 2e-7, 3e-7, 256};
    a.phases[5] = {0.0625, 0.0625, 0.0625, 0};
    a.outside_phases_seconds = 1.5e-5;
    a.partials = 1;
    a.merge_path = "none";
    a.distinct_merge_path = "parallel_two_level";
    a.result_rows = 10;
    a.peak_memory_bytes = 1ull << 40;
    a.minor_page_faults = 12345;
    a.events = {1, 2, 3, 4, 5, 18446744073709551615ull};

    ScalingRow b = a;
    b.query = "Q1";
    b.threads = 256;
    b.oversubscribed = true;
    b.error = "memory limit \"exceeded\", at 256 threads";
    return {a, b};
}

TEST(ScalingCsv, RoundTripsEveryField)
{
    const std::vector<ScalingRow> rows = sampleRows();
    std::stringstream csv;
    writeScalingCsv(rows, csv);
    EXPECT_TRUE(testing::sameRows(readScalingCsv(csv), rows));
}

TEST(ScalingCsv, HeaderNamesPhasesAndEvents)
{
    std::stringstream csv;
    writeScalingCsv({}, csv);
    const std::string header = csv.str();
    for (const char* column :
         {"query,threads,runs,best_seconds,speedup,efficiency", "merge_wall_seconds",
          "convert_span_seconds", "finalize_tasks", "TwoLevelConversions", "MergeTasks", "sql"})
    {
        EXPECT_NE(header.find(column), std::string::npos) << column;
    }
}

TEST(ScalingCsv, FindsColumnsByNameAndIgnoresUnknownOnes)
{
    std::stringstream csv("extra,threads,query\nzzz,8,Q3\n");
    const std::vector<ScalingRow> rows = readScalingCsv(csv);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].threads, 8u);
    EXPECT_EQ(rows[0].query, "Q3");
    EXPECT_EQ(rows[0].best_seconds, 0);
}

TEST(ScalingCsv, MalformedInputNamesLineAndColumn)
{
    const auto code_of = [](const std::string& text) -> std::string
    {
        std::stringstream csv(text);
        try
        {
            readScalingCsv(csv);
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kCannotParseInput);
            return error.what();
        }
        return "no error";
    };
    EXPECT_NE(code_of("query,threads\nQ0,eight\n").find("line 2, column threads"),
              std::string::npos);
    EXPECT_NE(code_of("query,threads\n\"Q0,1\n").find("unterminated"), std::string::npos);
    EXPECT_NE(code_of("query,threads\nQ0\n").find("1 fields"), std::string::npos);
    EXPECT_NE(code_of("").find("empty"), std::string::npos);
}

}  // namespace
}  // namespace granary::scale
