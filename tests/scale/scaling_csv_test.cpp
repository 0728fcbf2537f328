#include "programs/scale/scaling_csv.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "parse_error.h"
#include "programs/scale/csv_record.h"
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
    a.medians.work_seconds = 0.75;
    a.medians.span_seconds = 0.1875;
    a.medians.phase_work_seconds[1] = 1.0 / 7.0;  // partial
    a.medians.phase_span_seconds[3] = 2e-9;       // merge
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

/// `csv` without the columns whose names contain any of `dropped`.
std::string withoutColumns(const std::string& csv, const std::vector<std::string>& dropped)
{
    std::istringstream in(csv);
    std::string out;
    std::vector<bool> keep;
    size_t line = 0;
    std::vector<std::string> fields;
    while (readCsvRecord(in, fields, line, "test"))
    {
        keep.resize(fields.size(), true);
        for (size_t i = 0; line == 1 && i < fields.size(); ++i)
        {
            for (const std::string& name : dropped)
            {
                keep[i] = keep[i] && fields[i].find(name) == std::string::npos;
            }
        }
        std::vector<std::string> kept;
        for (size_t i = 0; i < fields.size(); ++i)
        {
            if (keep[i])
            {
                kept.push_back(quoteCsvField(fields[i]));
            }
        }
        out += fmt::format("{}\n", fmt::join(kept, ","));
    }
    return out;
}

TEST(ScalingCsv, WritesMediansAndWorkPerSpan)
{
    std::stringstream csv;
    writeScalingCsv(sampleRows(), csv);
    std::vector<std::string> header;
    std::vector<std::string> first;
    size_t line = 0;
    ASSERT_TRUE(readCsvRecord(csv, header, line, "test"));
    ASSERT_TRUE(readCsvRecord(csv, first, line, "test"));
    const auto field = [&](const std::string& name)
    {
        const auto at = std::find(header.begin(), header.end(), name);
        return at == header.end() ? std::string("missing") : first[at - header.begin()];
    };
    EXPECT_EQ(field("median_work_seconds"), "0.75");
    EXPECT_EQ(field("median_span_seconds"), "0.1875");
    EXPECT_EQ(field("work_per_span"), fmt::format("{}", 1e-9 / (1.0 / 3.0)));
    EXPECT_EQ(field("work_per_median_span"), "4");
    EXPECT_EQ(field("convert_median_work_seconds"), "0");
    EXPECT_EQ(field("partial_median_work_seconds"), fmt::format("{}", 1.0 / 7.0));
    EXPECT_EQ(field("merge_median_span_seconds"), "2e-09");
    EXPECT_EQ(field("finalize_median_span_seconds"), "0");
    EXPECT_EQ(field("plan_median_span_seconds"), "0");
}

TEST(ScalingCsv, LoadsACsvFromBeforeTheMedians)
{
    std::stringstream current;
    writeScalingCsv(sampleRows(), current);
    std::stringstream old(withoutColumns(current.str(), {"median", "work_per"}));
    ASSERT_EQ(old.str().find("median"), std::string::npos);
    const std::vector<ScalingRow> rows = readScalingCsv(old);
    std::vector<ScalingRow> expected = sampleRows();
    for (ScalingRow& row : expected)
    {
        row.medians = {};
    }
    EXPECT_TRUE(testing::sameRows(rows, expected));
    EXPECT_EQ(rows[0].workPerMedianSpan(), 0);
    EXPECT_EQ(rows[0].workPerSpan(), 1e-9 / (1.0 / 3.0));
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
    const auto code_of = [](const std::string& text)
    {
        return parseErrorOf(
            [&]
            {
                std::stringstream csv(text);
                readScalingCsv(csv);
            });
    };
    EXPECT_NE(code_of("query,threads\nQ0,eight\n").find("line 2, column threads"),
              std::string::npos);
    EXPECT_NE(code_of("query,threads\n\"Q0,1\n").find("unterminated"), std::string::npos);
    EXPECT_NE(code_of("query,threads\nQ0\n").find("1 fields"), std::string::npos);
    EXPECT_NE(code_of("").find("empty"), std::string::npos);
}

}  // namespace
}  // namespace granary::scale
