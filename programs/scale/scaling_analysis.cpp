#include "programs/scale/scaling_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/common/exception.h"

namespace granary::scale
{

namespace
{

/// A phase must be at least this share of its row's time for its growth to matter.
constexpr double kGrowthMinShare = 0.05;
/// And take this many times longer than with fewer threads.
constexpr double kGrowthMinRatio = 1.5;

double phaseEstimate(const PhaseStats& phase, double threads)
{
    return std::max(0.0, phase.work_seconds - phase.span_seconds) / threads + phase.span_seconds;
}

double rowTime(const ScalingRow& row, double calibration)
{
    return row.oversubscribed ? workSpanEstimate(row) * calibration : row.best_seconds;
}

PhaseGrowth phaseGrowth(std::span<const ScalingRow> rows, QueryPhase phase, double calibration)
{
    PhaseGrowth growth;
    if (rows.size() < 2)
    {
        return growth;
    }
    const ScalingRow& last = rows.back();
    const double last_time = phaseTimeAtThreads(last, phase, calibration);
    double least = std::numeric_limits<double>::infinity();
    // With one partial there is nothing to convert or merge: such rows are no baseline.
    const bool needs_partials = phase == QueryPhase::kConvert || phase == QueryPhase::kMerge;
    for (const ScalingRow& row : rows.first(rows.size() - 1))
    {
        if (needs_partials && row.partials < 2)
        {
            continue;
        }
        const double time = phaseTimeAtThreads(row, phase, calibration);
        if (time > 0 && time < least)
        {
            least = time;
            growth.from_threads = row.threads;
        }
    }
    if (!std::isfinite(least))
    {
        return growth;
    }
    growth.to_threads = last.threads;
    growth.ratio = last_time / least;
    const double total = rowTime(last, calibration);
    growth.grows =
        growth.ratio >= kGrowthMinRatio && total > 0 && last_time >= kGrowthMinShare * total;
    return growth;
}

}  // namespace

std::string QueryAnalysis::growingPhases() const
{
    std::string out;
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        if (phase_growth[i].grows)
        {
            out += fmt::format("{}{} x{:.1f}", out.empty() ? "" : "; ",
                               phaseName(static_cast<QueryPhase>(i)), phase_growth[i].ratio);
        }
    }
    return out;
}

double workSpanEstimate(const ScalingRow& row)
{
    double total = 0;
    for (const PhaseStats& phase : row.phases)
    {
        total += phaseEstimate(phase, static_cast<double>(row.threads));
    }
    return total;
}

double phaseTimeAtThreads(const ScalingRow& row, QueryPhase phase, double calibration)
{
    const PhaseStats& stats = row.phase(phase);
    return row.oversubscribed ? phaseEstimate(stats, static_cast<double>(row.threads)) * calibration
                              : stats.wall_seconds;
}

std::vector<std::string> queriesOf(std::span<const ScalingRow> rows)
{
    std::vector<std::string> queries;
    for (const ScalingRow& row : rows)
    {
        if (std::find(queries.begin(), queries.end(), row.query) == queries.end())
        {
            queries.push_back(row.query);
        }
    }
    return queries;
}

QueryAnalysis analyseQuery(const std::string& query, std::span<const ScalingRow> rows,
                           std::span<const size_t> predict_at)
{
    QueryAnalysis analysis;
    analysis.query = query;
    for (const ScalingRow& row : rows)
    {
        if (row.query == query && !row.failed() && row.best_seconds > 0)
        {
            analysis.rows.push_back(row);
        }
    }
    std::sort(analysis.rows.begin(), analysis.rows.end(),
              [](const ScalingRow& a, const ScalingRow& b) { return a.threads < b.threads; });

    // Calibrate the work/span estimate against what the real cores measured (it leaves out
    // planning and scheduling overheads), then use it where threads outnumber cores.
    double log_ratio_sum = 0;
    size_t calibration_rows = 0;
    for (const ScalingRow& row : analysis.rows)
    {
        const double estimate = workSpanEstimate(row);
        if (!row.oversubscribed && estimate > 0)
        {
            log_ratio_sum += std::log(row.best_seconds / estimate);
            ++calibration_rows;
        }
    }
    analysis.estimate_calibration =
        calibration_rows > 0 ? std::exp(log_ratio_sum / static_cast<double>(calibration_rows)) : 1;

    std::vector<ScalingSample> samples;
    for (const ScalingRow& row : analysis.rows)
    {
        const double time = rowTime(row, analysis.estimate_calibration);
        if (time > 0)
        {
            const ScalingSample sample{static_cast<double>(row.threads), time};
            analysis.fit_samples.push_back({sample, row.oversubscribed});
            samples.push_back(sample);
        }
    }
    try
    {
        analysis.model = fitScalingModel(samples);
        for (size_t threads : predict_at)
        {
            analysis.predictions.push_back(
                {threads, analysis.model->speedup(static_cast<double>(threads))});
        }
    }
    catch (const Exception& error)
    {
        analysis.model_error = error.what();
    }

    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        analysis.phase_growth[i] =
            phaseGrowth(analysis.rows, static_cast<QueryPhase>(i), analysis.estimate_calibration);
    }
    std::vector<ChartPoint> span_points;
    std::vector<ChartPoint> work_points;
    for (const ScalingRow& row : analysis.rows)
    {
        if (row.partials < 2)
        {
            continue;
        }
        const PhaseStats& convert = row.phase(QueryPhase::kConvert);
        const PhaseStats& merge = row.phase(QueryPhase::kMerge);
        const double partials = static_cast<double>(row.partials);
        span_points.push_back({partials, convert.span_seconds + merge.span_seconds});
        work_points.push_back({partials, convert.work_seconds + merge.work_seconds});
    }
    analysis.merge_span_growth = fitGrowth(span_points);
    analysis.merge_work_growth = fitGrowth(work_points);
    return analysis;
}

}  // namespace granary::scale
