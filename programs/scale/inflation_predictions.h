#pragma once

#include <span>
#include <string>
#include <vector>

#include "programs/scale/inflation_row.h"
#include "programs/scale/scaling_analysis.h"

namespace granary::scale
{

/// The step ClickBench's c6a results allow comparing: 16 → 192 vCPUs, where ClickHouse gains
/// 2.1× and DuckDB 2.4×. The target for Granary is kStepSpeedupTarget.
inline constexpr size_t kStepFromThreads = 16;
inline constexpr size_t kStepToThreads = 192;
inline constexpr double kStepSpeedupTarget = 6;

/// Which model predicted a query.
enum class PredictionModel
{
    kInflation,  ///< Median work and span with the measured instruction inflation.
    kFitted,     ///< No inflation row has its SQL: the fitted model (ScalingModel).
    kNone,       ///< Neither: no successful row, or too few for a fit.
};

struct PredictedTime
{
    size_t threads = 0;
    double seconds = 0;
    double speedup = 0;  ///< Against the model's own 1-thread time.
};

struct QueryPrediction
{
    std::string query;
    PredictionModel model = PredictionModel::kNone;
    std::string inflation_query;  ///< "default Q3": the inflation CSV's suite and name.
    std::vector<PredictedTime> times;
    double step_speedup = 0;  ///< T(16) / T(192); 0 without a model.
};

/// `predict_at` with kStepFromThreads and kStepToThreads added, ascending, without duplicates.
std::vector<size_t> inflationPredictionThreads(std::span<const size_t> predict_at);

/// Every analysed query at `threads`: by the inflation model where `inflation` has its SQL
/// (inflationBySql), else by its fitted model.
std::vector<QueryPrediction> predictWithInflation(std::span<const QueryAnalysis> analyses,
                                                  const std::vector<InflationRow>& inflation,
                                                  std::span<const size_t> threads);

/// The geometric mean of the 16 → 192 speedups of the queries the inflation model predicted
/// (0 for none).
double stepSpeedupGeometricMean(std::span<const QueryPrediction> predictions);

/// inflation_predictions.csv: query, model, inflation_query, seconds_at_<p> and speedup_at_<p>
/// at each of `threads` (those the predictions were made at), speedup_16_to_192.
std::string inflationPredictionsCsv(std::span<const QueryPrediction> predictions,
                                    std::span<const size_t> threads);

/// For the console: a line per query and the geometric mean against the target.
std::string inflationPredictionsSummary(std::span<const QueryPrediction> predictions);

}  // namespace granary::scale
