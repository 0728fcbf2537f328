#include "programs/scale/inflation_predictions.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "programs/scale/geometric_mean.h"
#include "programs/scale/inflation_match.h"
#include "programs/scale/inflation_model.h"

namespace granary::scale
{

namespace
{

using TimeModel = std::function<double(double threads)>;

std::string_view modelName(PredictionModel model)
{
    switch (model)
    {
        case PredictionModel::kInflation:
            return "inflation";
        case PredictionModel::kFitted:
            return "fitted";
        case PredictionModel::kNone:
            break;
    }
    return "none";
}

/// Fills the prediction's times and 16 → 192 step from `time`, the chosen model's T(p).
void predictTimes(QueryPrediction& prediction, const TimeModel& time,
                  std::span<const size_t> threads)
{
    const double one_thread = time(1);
    for (const size_t p : threads)
    {
        const double seconds = time(static_cast<double>(p));
        prediction.times.push_back({p, seconds, seconds > 0 ? one_thread / seconds : 0});
    }
    const double to = time(static_cast<double>(kStepToThreads));
    prediction.step_speedup = to > 0 ? time(static_cast<double>(kStepFromThreads)) / to : 0;
}

QueryPrediction predictQuery(const QueryAnalysis& analysis,
                             const std::map<std::string, InflationQuery>& inflation_by_sql,
                             std::span<const size_t> threads)
{
    QueryPrediction prediction;
    prediction.query = analysis.query;
    if (analysis.rows.empty())
    {
        return prediction;
    }
    const auto match = inflation_by_sql.find(normalizedSql(analysis.rows.front().sql));
    if (match != inflation_by_sql.end())
    {
        const InflationModel model = inflationModelOf(analysis.rows, match->second.curve);
        prediction.model = PredictionModel::kInflation;
        prediction.inflation_query = match->second.suite + " " + match->second.query;
        predictTimes(
            prediction, [&model](double p) { return model.time(p); }, threads);
    }
    else if (analysis.model)
    {
        prediction.model = PredictionModel::kFitted;
        predictTimes(
            prediction, [&analysis](double p) { return analysis.model->time(p); }, threads);
    }
    return prediction;
}

std::string predictionLine(const QueryPrediction& prediction)
{
    std::string line = prediction.query;
    switch (prediction.model)
    {
        case PredictionModel::kInflation:
            line += " [inflation model, " + prediction.inflation_query + "]:";
            break;
        case PredictionModel::kFitted:
            line += " [fitted model: no inflation row has its SQL]:";
            break;
        case PredictionModel::kNone:
            return line + " [no model]\n";
    }
    line += " predicted speedup";
    for (const PredictedTime& time : prediction.times)
    {
        line += fmt::format(" {}:{:.1f}x", time.threads, time.speedup);
    }
    return line + fmt::format("; {}->{} threads {:.2f}x\n", kStepFromThreads, kStepToThreads,
                              prediction.step_speedup);
}

}  // namespace

std::vector<size_t> inflationPredictionThreads(std::span<const size_t> predict_at)
{
    std::vector<size_t> threads(predict_at.begin(), predict_at.end());
    threads.push_back(kStepFromThreads);
    threads.push_back(kStepToThreads);
    std::sort(threads.begin(), threads.end());
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    return threads;
}

std::vector<QueryPrediction> predictWithInflation(std::span<const QueryAnalysis> analyses,
                                                  const std::vector<InflationRow>& inflation,
                                                  std::span<const size_t> threads)
{
    const std::map<std::string, InflationQuery> inflation_by_sql = inflationBySql(inflation);
    std::vector<QueryPrediction> predictions;
    for (const QueryAnalysis& analysis : analyses)
    {
        predictions.push_back(predictQuery(analysis, inflation_by_sql, threads));
    }
    return predictions;
}

double stepSpeedupGeometricMean(std::span<const QueryPrediction> predictions)
{
    GeometricMean mean;
    for (const QueryPrediction& prediction : predictions)
    {
        if (prediction.model == PredictionModel::kInflation && prediction.step_speedup > 0)
        {
            mean.add(prediction.step_speedup);
        }
    }
    return mean.value();
}

std::string inflationPredictionsCsv(std::span<const QueryPrediction> predictions,
                                    std::span<const size_t> threads)
{
    std::string csv = "query,model,inflation_query";
    for (const char* figure : {"seconds", "speedup"})
    {
        for (const size_t p : threads)
        {
            csv += fmt::format(",{}_at_{}", figure, p);
        }
    }
    csv += fmt::format(",speedup_{}_to_{}\n", kStepFromThreads, kStepToThreads);
    for (const QueryPrediction& prediction : predictions)
    {
        csv += fmt::format("{},{},{}", prediction.query, modelName(prediction.model),
                           prediction.inflation_query);
        const bool predicted = prediction.times.size() == threads.size();
        for (const auto figure : {&PredictedTime::seconds, &PredictedTime::speedup})
        {
            for (size_t i = 0; i < threads.size(); ++i)
            {
                csv += predicted ? fmt::format(",{}", prediction.times[i].*figure) : ",";
            }
        }
        csv += predicted ? fmt::format(",{}\n", prediction.step_speedup) : ",\n";
    }
    return csv;
}

std::string inflationPredictionsSummary(std::span<const QueryPrediction> predictions)
{
    std::string summary =
        "predictions from median span and work inflation, T(p) = serial + sum over partial, "
        "convert, merge, finalize of max(0, W*I(p) - S)/p + S (docs/scaling.md):\n";
    size_t matched = 0;
    for (const QueryPrediction& prediction : predictions)
    {
        summary += predictionLine(prediction);
        matched += prediction.model == PredictionModel::kInflation ? 1 : 0;
    }
    const double mean = stepSpeedupGeometricMean(predictions);
    return summary +
           fmt::format(
               "{}->{} threads, inflation model: geometric mean {:.2f}x over {} of {} queries "
               "(target >= {}x: {}; ClickHouse 2.1x, DuckDB 2.4x on ClickBench's c6a 16->192 "
               "vCPUs)\n",
               kStepFromThreads, kStepToThreads, mean, matched, predictions.size(),
               kStepSpeedupTarget, mean >= kStepSpeedupTarget ? "meets" : "MISSES");
}

}  // namespace granary::scale
