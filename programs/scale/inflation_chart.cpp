#include "programs/scale/inflation_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace granary::scale
{

namespace
{

constexpr std::string_view kBackgroundColour = "#c4c4c4";
constexpr std::string_view kMeanColour = "#000000";

/// One query's points, sorted by threads: the last one ranks it among the worst.
struct QueryLine
{
    std::string query;
    std::vector<ChartPoint> points;
    std::optional<double> one_thread_ms;
};

QueryLine queryLine(const InflationSuite& suite, const std::string& query)
{
    QueryLine line{query, {}, std::nullopt};
    for (const InflationRow& row : suite.rows)
    {
        if (row.query == query && hasInflation(row))
        {
            line.points.push_back({static_cast<double>(row.threads), *row.inflation});
            line.one_thread_ms = row.one_thread_ms;
        }
    }
    std::sort(line.points.begin(), line.points.end(),
              [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    return line;
}

/// The suite's queries that have points, worst (highest at their largest thread count) first.
std::vector<QueryLine> queryLinesWorstFirst(const InflationSuite& suite)
{
    std::vector<QueryLine> lines;
    for (const std::string& query : queriesOf(suite.rows))
    {
        QueryLine line = queryLine(suite, query);
        if (!line.points.empty())
        {
            lines.push_back(std::move(line));
        }
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const QueryLine& a, const QueryLine& b)
                     { return a.points.back().y > b.points.back().y; });
    return lines;
}

/// Short enough for the legend's 370 pixels: "Q3: 1.310x at 256; 36.0 ms at 1 thread".
std::string legendLabel(const QueryLine& line)
{
    const ChartPoint last = line.points.back();
    return fmt::format("{}: {:.3f}x at {:.0f}; {} at 1 thread", line.query, last.y, last.x,
                       line.one_thread_ms ? fmt::format("{:.1f} ms", *line.one_thread_ms) : "? ms");
}

ChartSeries geometricMeanSeries(const std::string& suite,
                                const std::vector<InflationSummaryRow>& summary)
{
    ChartSeries mean{"geometric mean", {}, std::string(kMeanColour)};
    mean.line_width = 4;
    for (const InflationSummaryRow& row : summary)
    {
        if (row.suite == suite && row.queries > 0)
        {
            mean.points.push_back({static_cast<double>(row.threads), row.geometric_mean});
            mean.name = fmt::format("geometric mean of {} queries", row.queries);
        }
    }
    return mean;
}

/// How the suite fares against the targets at its largest thread count, under the legend.
void addTargetNotes(const std::string& suite, const std::vector<InflationSummaryRow>& summary,
                    LineChart& chart)
{
    const auto last = std::find_if(summary.rbegin(), summary.rend(),
                                   [&](const InflationSummaryRow& row)
                                   { return row.suite == suite && row.queries > 0; });
    if (last == summary.rend())
    {
        return;
    }
    chart.notes.push_back({fmt::format("at {} threads: geometric mean {:.3f}x (target {}x)",
                                       last->threads, last->geometric_mean, kMeanInflationTarget),
                           last->geometric_mean > kMeanInflationTarget});
    chart.notes.push_back(
        {fmt::format("{} of {} queries >= {} ms above {}x", last->big_over_target.size(),
                     last->big_queries, kBigQueryMs, kQueryInflationTarget),
         !last->big_over_target.empty()});
}

/// Titles, axes and the two targets as dashed lines; no data yet.
LineChart emptyInflationChart(const std::string& suite)
{
    LineChart chart;
    chart.title = fmt::format("Work inflation, suite {}", suite);
    chart.subtitle =
        "hot run's instructions at p threads / at 1 thread under callgrind; oneTBB's own "
        "instructions and SELECT 1's left out";
    chart.x_label = "threads";
    chart.y_label = "instructions / instructions at 1 thread";
    chart.x_scale = AxisScale::kLog2;
    chart.y_scale = AxisScale::kLinear;
    chart.level_lines.push_back(
        {kMeanInflationTarget,
         fmt::format("{}x: target for the geometric mean", kMeanInflationTarget)});
    chart.level_lines.push_back(
        {kQueryInflationTarget,
         fmt::format("{}x: target for queries >= {} ms", kQueryInflationTarget, kBigQueryMs)});
    return chart;
}

}  // namespace

LineChart inflationChart(const InflationSuite& suite,
                         const std::vector<InflationSummaryRow>& summary)
{
    LineChart chart = emptyInflationChart(suite.name);
    const std::vector<QueryLine> lines = queryLinesWorstFirst(suite);
    const size_t labelled = std::min(lines.size(), kLabelledQueries);
    // Background lines first, so the mean and the labelled queries are drawn over them.
    for (size_t i = labelled; i < lines.size(); ++i)
    {
        chart.series.push_back({lines[i].query, lines[i].points, std::string(kBackgroundColour),
                                LineStyle::kSolid, MarkerShape::kNone, 1, false});
    }
    chart.series.push_back(geometricMeanSeries(suite.name, summary));
    for (size_t i = 0; i < labelled; ++i)
    {
        chart.series.push_back(
            {legendLabel(lines[i]), lines[i].points, std::string(chartColour(i))});
    }
    if (labelled < lines.size())
    {
        chart.notes.push_back(
            {fmt::format("{} more queries in grey, unlabelled", lines.size() - labelled), false});
    }
    addTargetNotes(suite.name, summary, chart);
    return chart;
}

}  // namespace granary::scale
