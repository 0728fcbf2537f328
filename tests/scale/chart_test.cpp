#include <gtest/gtest.h>

#include <cmath>

#include "programs/scale/chart_axis.h"
#include "programs/scale/line_chart.h"
#include "xml_check.h"

namespace granary::scale
{
namespace
{

LineChart sampleChart()
{
    LineChart chart;
    chart.title = "Q5 <count & distinct>";
    chart.subtitle = "test machine";
    chart.x_label = "threads";
    chart.y_label = "speedup";
    chart.x_scale = AxisScale::kLog2;
    chart.y_scale = AxisScale::kLog2;
    chart.series.push_back({"ideal", {{1, 1}, {256, 256}}, "#999"});
    chart.series.push_back(
        {"measured", {{1, 1}, {2, 1.9}, {4, 3.5}, {0, 5}, {8, -1}}, "#1f77b4", LineStyle::kDashed});
    chart.series.push_back(
        {"predicted", {{80, 40}}, "#d62728", LineStyle::kSolid, MarkerShape::kSquare, 0});
    chart.reference_lines.push_back({2, "2 hardware threads"});
    chart.notes.push_back({"! merge grows", true});
    return chart;
}

TEST(XmlCheck, RejectsMalformedDocuments)
{
    EXPECT_TRUE(testing::checkXml("<a><b x=\"1\"/>t &amp; u</a>").well_formed);
    EXPECT_FALSE(testing::checkXml("<a><b></a></b>").well_formed);
    EXPECT_FALSE(testing::checkXml("<a x=1></a>").well_formed);
    EXPECT_FALSE(testing::checkXml("<a>&nbsp;</a>").well_formed);
    EXPECT_FALSE(testing::checkXml("<a>1 < 2</a>").well_formed);
    EXPECT_FALSE(testing::checkXml("<a></a><b></b>").well_formed);
    EXPECT_FALSE(testing::checkXml("<a><!-- x -- y --></a>").well_formed);
}

TEST(LineChart, SvgIsWellFormedAndCarriesLabels)
{
    const std::string svg = sampleChart().toSvg();
    const testing::XmlSummary xml = testing::checkXml(svg);
    ASSERT_TRUE(xml.well_formed) << xml.problem;
    EXPECT_EQ(xml.elements.at("svg"), 1u);
    // Two series have two or more points shown (the measured one loses x=0 and y<0 on log axes).
    EXPECT_EQ(xml.elements.at("polyline"), 2u);
    for (const char* label :
         {"Q5 <count & distinct>", "test machine", "threads", "speedup", "ideal", "measured",
          "predicted", "2 hardware threads", "! merge grows"})
    {
        EXPECT_NE(xml.text.find(label), std::string::npos) << label;
    }
    for (const char* tick : {"1", "2", "4", "16", "64", "256"})
    {
        EXPECT_NE(xml.text.find(std::string(tick) + "\n"), std::string::npos) << tick;
    }
    EXPECT_EQ(svg.find("nan"), std::string::npos);
    EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(LineChart, EmptyChartIsStillWellFormed)
{
    LineChart chart;
    chart.title = "nothing";
    chart.y_scale = AxisScale::kLog10;
    const testing::XmlSummary xml = testing::checkXml(chart.toSvg());
    EXPECT_TRUE(xml.well_formed) << xml.problem;
}

TEST(LineChart, LevelLinesWidenTheAxisAndHiddenSeriesStayOutOfTheLegend)
{
    LineChart chart;
    chart.y_scale = AxisScale::kLinear;
    chart.series.push_back({"shown", {{1, 1}, {2, 1.05}}, "#1f77b4"});
    chart.series.push_back(
        {"hidden", {{1, 1}, {2, 1.02}}, "#ccc", LineStyle::kSolid, MarkerShape::kNone, 1, false});
    chart.level_lines.push_back({1.25, "the target"});
    const std::string svg = chart.toSvg();
    const testing::XmlSummary xml = testing::checkXml(svg);
    ASSERT_TRUE(xml.well_formed) << xml.problem;
    EXPECT_EQ(xml.elements.at("polyline"), 2u);
    EXPECT_NE(xml.text.find("the target"), std::string::npos);
    EXPECT_NE(xml.text.find("shown"), std::string::npos);
    EXPECT_EQ(xml.text.find("hidden"), std::string::npos);
    // The data end at 1.05; the axis reaches 1.25 (a tick label) so the level line is shown.
    EXPECT_NE(xml.text.find("1.25\n"), std::string::npos);
    EXPECT_NE(svg.find("<!-- level line y=1.25 -->"), std::string::npos);
}

TEST(ChartAxis, Log2TicksArePowersOfTwoCoveringTheRange)
{
    const ChartAxis axis(AxisScale::kLog2, 1, 480);
    EXPECT_EQ(axis.min(), 1);
    EXPECT_EQ(axis.max(), 512);
    const std::vector<double> ticks = axis.ticks();
    ASSERT_EQ(ticks.size(), 10u);
    for (size_t i = 0; i < ticks.size(); ++i)
    {
        EXPECT_EQ(ticks[i], std::ldexp(1.0, static_cast<int>(i)));
    }
    EXPECT_DOUBLE_EQ(axis.fraction(1), 0);
    EXPECT_DOUBLE_EQ(axis.fraction(512), 1);
    EXPECT_NEAR(axis.fraction(16), 4.0 / 9.0, 1e-12);
    EXPECT_FALSE(axis.accepts(0));
}

TEST(ChartAxis, LinearTicksUseRoundSteps)
{
    const ChartAxis axis(AxisScale::kLinear, 3, 97);
    EXPECT_EQ(axis.min(), 0);
    EXPECT_EQ(axis.max(), 100);
    const std::vector<double> expected = {0, 20, 40, 60, 80, 100};
    EXPECT_EQ(axis.ticks(), expected);
}

TEST(ChartAxis, Log10ShortRangeGetsIntermediateTicks)
{
    const ChartAxis axis(AxisScale::kLog10, 0.003, 0.04);
    EXPECT_DOUBLE_EQ(axis.min(), 0.001);
    EXPECT_DOUBLE_EQ(axis.max(), 0.1);
    const std::vector<double> ticks = axis.ticks();
    ASSERT_EQ(ticks.size(), 7u);  // 1, 2, 5 per decade, then 0.1
    EXPECT_EQ(ChartAxis::formatTick(ticks[1]), "0.002");
    EXPECT_EQ(ChartAxis::formatTick(ticks[2]), "0.005");
}

}  // namespace
}  // namespace granary::scale
