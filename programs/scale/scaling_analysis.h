#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "programs/scale/growth_fit.h"
#include "programs/scale/scaling_model.h"
#include "programs/scale/scaling_row.h"

namespace granary::scale
{

/// A sample the model was fitted to: measured, or estimated from work and span.
struct FitSample
{
    ScalingSample sample;
    bool estimated = false;
};

/// Whether a phase takes longer as threads are added (the seed's Q5 pathology).
struct PhaseGrowth
{
    bool grows = false;
    double ratio = 1;  ///< Time at the most threads / least time at fewer threads.
    size_t from_threads = 0;
    size_t to_threads = 0;
};

struct Prediction
{
    size_t threads = 0;
    double speedup = 0;
};

struct QueryAnalysis
{
    std::string query;
    std::vector<ScalingRow> rows;  ///< Successful rows, by thread count.
    std::vector<FitSample> fit_samples;
    double estimate_calibration = 1;  ///< Measured / work-span estimate on the real cores.
    std::optional<ScalingModel> model;
    std::string model_error;  ///< Why there is no model.
    std::vector<Prediction> predictions;
    std::array<PhaseGrowth, kQueryPhaseCount> phase_growth{};
    GrowthFit merge_span_growth;  ///< convert + merge span against partials.
    GrowthFit merge_work_growth;  ///< convert + merge work against partials.

    std::string growingPhases() const;  ///< "merge x3.2; convert x2.0", or empty.
};

/// Greedy-scheduling (Brent) time of a row on `threads` cores: per phase (work - span) / p +
/// span, summed over phases. Zero when the row has no phase statistics.
double workSpanEstimate(const ScalingRow& row);

/// A phase's time at the row's thread count: its measured wall time on the machine's own
/// cores, its work/span estimate (scaled by `calibration`) when oversubscribed.
double phaseTimeAtThreads(const ScalingRow& row, QueryPhase phase, double calibration);

/// Analyses one query's rows (rows of other queries and failed rows are ignored).
QueryAnalysis analyseQuery(const std::string& query, std::span<const ScalingRow> rows,
                           std::span<const size_t> predict_at);

/// The queries of `rows` in first-appearance order.
std::vector<std::string> queriesOf(std::span<const ScalingRow> rows);

}  // namespace granary::scale
