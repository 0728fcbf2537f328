#include "programs/scale/inflation_chart.h"

#include <gtest/gtest.h>

#include <string>

#include "xml_check.h"

namespace granary::scale
{
namespace
{

/// Twelve queries, Qi at 1 + 3i/100 at 256 threads and taking 20i ms at 1 thread: Q11 is the
/// worst; Q0 and Q1, the least inflated, are left unlabelled; Q9-Q11 are big and above 1.25.
InflationSuite twelveQueries()
{
    InflationSuite suite{"official", {}};
    for (int i = 0; i < 12; ++i)
    {
        std::string query(1, 'Q');
        query += std::to_string(i);
        for (const size_t threads : {1, 16, 256})
        {
            InflationRow row;
            row.suite = suite.name;
            row.query = query;
            row.threads = threads;
            row.inflation = threads == 1 ? 1.0 : 1 + i * (threads == 256 ? 0.03 : 0.01);
            row.one_thread_ms = 20.0 * i;
            suite.rows.push_back(row);
        }
    }
    return suite;
}

TEST(InflationChart, SvgIsWellFormedWithTargetsMeanAndWorstTen)
{
    const InflationSuite suite = twelveQueries();
    const std::string svg = inflationChart(suite, summariseInflation(suite.rows)).toSvg();
    const testing::XmlSummary xml = testing::checkXml(svg);
    ASSERT_TRUE(xml.well_formed) << xml.problem;
    // Twelve queries and the geometric mean.
    EXPECT_EQ(xml.elements.at("polyline"), 13u);
    for (const char* text : {"Work inflation, suite official", "1.25x: target for queries >= 50 ms",
                             "1.1x: target for the geometric mean", "geometric mean of 12 queries",
                             "Q11: 1.330x at 256; 220.0 ms at 1 thread", "Q2: 1.060x at 256;",
                             "2 more queries in grey", "3 of 9 queries >= 50 ms above 1.25x"})
    {
        EXPECT_NE(xml.text.find(text), std::string::npos) << text;
    }
    EXPECT_EQ(xml.text.find("Q0:"), std::string::npos);
    EXPECT_EQ(xml.text.find("Q1:"), std::string::npos);
    EXPECT_NE(svg.find("<!-- level line y=1.25 -->"), std::string::npos);
    EXPECT_NE(svg.find("<!-- level line y=1.1 -->"), std::string::npos);
}

}  // namespace
}  // namespace granary::scale
