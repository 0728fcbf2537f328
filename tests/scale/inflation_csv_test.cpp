#include "programs/scale/inflation_csv.h"

#include <gtest/gtest.h>

#include <sstream>

#include "inflation_test_data.h"
#include "parse_error.h"

namespace granary::scale
{
namespace
{

std::vector<InflationRow> parse(const std::string& csv)
{
    std::istringstream in(csv);
    return readInflationCsv(in, "sample.csv");
}

std::string parseError(const std::string& csv)
{
    return parseErrorOf([&] { parse(csv); });
}

const std::string kHeader =
    "suite,query,threads,instructions,scheduler_instructions,inflation,one_thread_ms,sql\n";

TEST(InflationCsv, ReadsEveryColumnAndQuotedSql)
{
    const std::vector<InflationRow> rows = parse(testing::kSampleInflationCsv);
    ASSERT_EQ(rows.size(), 8u);
    const InflationRow& q1 = rows[3];
    EXPECT_EQ(q1.suite, "default");
    EXPECT_EQ(q1.query, "Q1");
    EXPECT_EQ(q1.threads, 16u);
    EXPECT_EQ(q1.instructions, 3000);
    EXPECT_EQ(q1.scheduler_instructions, 10);
    EXPECT_EQ(q1.inflation, 1.5);
    EXPECT_EQ(q1.one_thread_ms, 10.5);
    EXPECT_EQ(q1.sql,
              "SELECT RegionID, COUNT(DISTINCT UserID) AS \"u\" FROM hits GROUP BY RegionID "
              "LIMIT 10");
    EXPECT_EQ(rows[4].one_thread_ms, 80.0);
}

TEST(InflationCsv, EmptyFieldsAreMissingValues)
{
    const std::vector<InflationRow> rows = parse(testing::kSampleInflationCsv);
    EXPECT_EQ(rows[6].suite, "official");
    EXPECT_EQ(rows[6].inflation, 1.0);
    EXPECT_FALSE(rows[6].one_thread_ms.has_value());
    EXPECT_FALSE(rows[7].inflation.has_value());
}

TEST(InflationCsv, ColumnsAreFoundByNameAndOptionalOnesMayBeMissing)
{
    const std::vector<InflationRow> rows =
        parse("threads,inflation,suite,one_thread_ms,query,extra\n64,1.25,s,51,Q9,x\n\n");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].suite, "s");
    EXPECT_EQ(rows[0].query, "Q9");
    EXPECT_EQ(rows[0].threads, 64u);
    EXPECT_EQ(rows[0].inflation, 1.25);
    EXPECT_EQ(rows[0].instructions, 0);
    EXPECT_EQ(rows[0].sql, "");
}

TEST(InflationCsv, MalformedInputNamesFileLineAndColumn)
{
    const std::string bad_threads = parseError(kHeader +
                                               "default,Q0,1,10,0,1.0,60,SELECT 1\n"
                                               "default,Q0,many,12,0,1.2,60,SELECT 1\n");
    EXPECT_NE(bad_threads.find("sample.csv line 3, column threads"), std::string::npos)
        << bad_threads;
    EXPECT_NE(bad_threads.find("'many'"), std::string::npos) << bad_threads;

    const std::string missing = parseError("suite,query,inflation,one_thread_ms\ns,Q0,1.0,5\n");
    EXPECT_NE(missing.find("sample.csv line 1: no column 'threads'"), std::string::npos) << missing;

    const std::string short_row = parseError(kHeader + "default,Q0,1,10\n");
    EXPECT_NE(short_row.find("sample.csv line 2: 4 fields, the header has 8"), std::string::npos)
        << short_row;

    const std::string zero = parseError(kHeader + "default,Q0,0,10,0,1.0,60,SELECT 1\n");
    EXPECT_NE(zero.find("line 2, column threads"), std::string::npos) << zero;

    // The quoted field spans lines 2 and 3; the error is on the line the record ends.
    const std::string quote = parseError(kHeader + "default,Q0,1,10,0,1.0,60,\"SELECT\n1\"x\n");
    EXPECT_NE(quote.find("sample.csv line 3: text after a closing quote"), std::string::npos)
        << quote;

    EXPECT_NE(parseError("").find("sample.csv: empty"), std::string::npos);
}

}  // namespace
}  // namespace granary::scale
