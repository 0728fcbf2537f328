#include "programs/scale/scaling_plots.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace granary::scale
{

namespace
{

constexpr std::string_view kMeasuredColour = "#1f77b4";
constexpr std::string_view kEstimateColour = "#ff7f0e";
constexpr std::string_view kModelColour = "#d62728";
constexpr std::string_view kBoundColour = "#2ca02c";
constexpr std::string_view kIdealColour = "#9a9a9a";

LineChart baseChart(const QueryAnalysis& analysis, const PlotContext& context,
                    std::string_view what)
{
    LineChart chart;
    chart.title = fmt::format("{}: {}", analysis.query, what);
    chart.subtitle = context.machine_summary;
    chart.x_label = "threads";
    chart.x_scale = AxisScale::kLog2;
    chart.reference_lines.push_back({static_cast<double>(context.hardware_threads),
                                     fmt::format("{} hardware threads", context.hardware_threads)});
    return chart;
}

size_t largestThreads(const QueryAnalysis& analysis, const PlotContext& context)
{
    size_t largest = analysis.rows.empty() ? 1 : analysis.rows.back().threads;
    for (size_t threads : context.predict_at)
    {
        largest = std::max(largest, threads);
    }
    return largest;
}

void addMergeGrowthNote(const QueryAnalysis& analysis, LineChart& chart)
{
    const GrowthFit& growth = analysis.merge_span_growth;
    if (growth.samples < 3)
    {
        return;
    }
    chart.notes.push_back(
        {fmt::format("convert+merge span ~ partials^{:.2f}", growth.exponent), false});
    if (growth.superlinear())
    {
        chart.notes.push_back({"! merge span grows faster than linear", true});
    }
}

}  // namespace

LineChart speedupChart(const QueryAnalysis& analysis, const PlotContext& context)
{
    LineChart chart = baseChart(analysis, context, "speedup against threads");
    chart.y_label = "speedup";
    chart.y_scale = AxisScale::kLog2;
    const size_t largest = largestThreads(analysis, context);

    ChartSeries ideal{"ideal (linear)",   {}, std::string(kIdealColour), LineStyle::kSolid,
                      MarkerShape::kNone, 1.5};
    for (size_t p = 1; p <= largest; p *= 2)
    {
        ideal.points.push_back({static_cast<double>(p), static_cast<double>(p)});
    }
    ideal.points.push_back({static_cast<double>(largest), static_cast<double>(largest)});
    chart.series.push_back(std::move(ideal));

    ChartSeries measured{"measured", {}, std::string(kMeasuredColour)};
    ChartSeries oversubscribed{
        "measured, oversubscribed", {}, std::string(kIdealColour), LineStyle::kDotted};
    ChartSeries bound{
        "work/span bound", {}, std::string(kBoundColour), LineStyle::kDotted, MarkerShape::kNone};
    for (const ScalingRow& row : analysis.rows)
    {
        const ChartPoint point{static_cast<double>(row.threads), row.speedup};
        (row.oversubscribed ? oversubscribed : measured).points.push_back(point);
        if (row.span_seconds > 0)
        {
            bound.points.push_back(
                {static_cast<double>(row.threads), row.work_seconds / row.span_seconds});
        }
    }
    if (!oversubscribed.points.empty() && !measured.points.empty())
    {
        oversubscribed.points.insert(oversubscribed.points.begin(), measured.points.back());
    }

    ChartSeries estimated{"work/span estimate (fit input)",
                          {},
                          std::string(kEstimateColour),
                          LineStyle::kSolid,
                          MarkerShape::kSquare,
                          0};
    if (analysis.model)
    {
        const ScalingModel& model = *analysis.model;
        for (const FitSample& sample : analysis.fit_samples)
        {
            if (sample.estimated)
            {
                estimated.points.push_back(
                    {sample.sample.threads, model.time(1) / sample.sample.seconds});
            }
        }
        ChartSeries curve{
            fmt::format(
                "model: f={:.4f}{}", model.serialFraction(),
                model.uses_contention ? fmt::format(", k={:.2e}", model.relativeContention()) : ""),
            {},
            std::string(kModelColour),
            LineStyle::kDashed,
            MarkerShape::kNone};
        for (double p = 1; p < static_cast<double>(largest); p *= std::sqrt(2.0))
        {
            curve.points.push_back({p, model.speedup(p)});
        }
        curve.points.push_back(
            {static_cast<double>(largest), model.speedup(static_cast<double>(largest))});
        ChartSeries predicted{
            "predicted", {}, std::string(kModelColour), LineStyle::kSolid, MarkerShape::kSquare, 0};
        for (const Prediction& prediction : analysis.predictions)
        {
            predicted.points.push_back(
                {static_cast<double>(prediction.threads), prediction.speedup});
            chart.notes.push_back(
                {fmt::format("predicted at {}: {:.1f}x", prediction.threads, prediction.speedup),
                 false});
        }
        chart.series.push_back(std::move(curve));
        chart.series.push_back(std::move(predicted));
        chart.notes.push_back({fmt::format("fit: {} samples, rms error {:.1f}%", model.samples,
                                           100 * model.rms_relative_error),
                               false});
    }
    else
    {
        chart.notes.push_back({"no model: " + analysis.model_error, true});
    }
    chart.series.push_back(std::move(measured));
    if (!oversubscribed.points.empty())
    {
        chart.series.push_back(std::move(oversubscribed));
    }
    if (!estimated.points.empty())
    {
        chart.series.push_back(std::move(estimated));
    }
    if (!bound.points.empty())
    {
        chart.series.push_back(std::move(bound));
    }
    return chart;
}

LineChart phaseChart(const QueryAnalysis& analysis, const PlotContext& context)
{
    LineChart chart = baseChart(analysis, context, "time per phase against threads");
    chart.y_label = "seconds (log)";
    chart.y_scale = AxisScale::kLog10;
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        const auto phase = static_cast<QueryPhase>(i);
        const PhaseGrowth& growth = analysis.phase_growth[i];
        const std::string colour(chartColour(i));
        const double width = growth.grows ? 4.5 : 2;
        ChartSeries time{growth.grows
                             ? fmt::format("{}: GROWS x{:.1f} ({} -> {} threads)", phaseName(phase),
                                           growth.ratio, growth.from_threads, growth.to_threads)
                             : std::string(phaseName(phase)),
                         {},
                         colour,
                         LineStyle::kSolid,
                         MarkerShape::kCircle,
                         width};
        ChartSeries span{fmt::format("{} span", phaseName(phase)),
                         {},
                         colour,
                         LineStyle::kDashed,
                         MarkerShape::kNone,
                         growth.grows ? 2.5 : 1.2};
        for (const ScalingRow& row : analysis.rows)
        {
            const double threads = static_cast<double>(row.threads);
            time.points.push_back(
                {threads, phaseTimeAtThreads(row, phase, analysis.estimate_calibration)});
            span.points.push_back({threads, row.phase(phase).span_seconds});
        }
        chart.series.push_back(std::move(time));
        chart.series.push_back(std::move(span));
        if (growth.grows)
        {
            chart.notes.push_back(
                {fmt::format("! {} takes longer with more threads", phaseName(phase)), true});
        }
    }
    chart.notes.push_back({"solid: wall time; above the hardware", false});
    chart.notes.push_back({"threads, the work/span estimate", false});
    chart.notes.push_back({"dashed: span (critical path)", false});
    addMergeGrowthNote(analysis, chart);
    return chart;
}

LineChart workSpanChart(const QueryAnalysis& analysis, const PlotContext& context)
{
    LineChart chart = baseChart(analysis, context, "work and span against threads");
    chart.y_label = "CPU seconds (log)";
    chart.y_scale = AxisScale::kLog10;
    ChartSeries work{"work (sum of task CPU time)", {}, std::string(chartColour(0))};
    ChartSeries span{"span (critical path)", {}, std::string(chartColour(1))};
    ChartSeries merge_span{
        "convert+merge span", {}, std::string(chartColour(3)), LineStyle::kDashed};
    ChartSeries merge_work{
        "convert+merge work", {}, std::string(chartColour(2)), LineStyle::kDashed};
    for (const ScalingRow& row : analysis.rows)
    {
        const double threads = static_cast<double>(row.threads);
        work.points.push_back({threads, row.work_seconds});
        span.points.push_back({threads, row.span_seconds});
        merge_span.points.push_back({threads, row.phase(QueryPhase::kConvert).span_seconds +
                                                  row.phase(QueryPhase::kMerge).span_seconds});
        merge_work.points.push_back({threads, row.phase(QueryPhase::kConvert).work_seconds +
                                                  row.phase(QueryPhase::kMerge).work_seconds});
    }
    if (!analysis.rows.empty() && analysis.rows.back().span_seconds > 0)
    {
        const ScalingRow& last = analysis.rows.back();
        chart.notes.push_back({fmt::format("work/span at {} threads: {:.1f}", last.threads,
                                           last.work_seconds / last.span_seconds),
                               false});
    }
    chart.series.push_back(std::move(work));
    chart.series.push_back(std::move(span));
    chart.series.push_back(std::move(merge_work));
    chart.series.push_back(std::move(merge_span));
    addMergeGrowthNote(analysis, chart);
    if (analysis.merge_work_growth.samples >= 3)
    {
        chart.notes.push_back({fmt::format("convert+merge work ~ partials^{:.2f}",
                                           analysis.merge_work_growth.exponent),
                               false});
    }
    return chart;
}

}  // namespace granary::scale
