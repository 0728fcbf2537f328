#include "programs/scale/inflation_predictions.h"

#include <gtest/gtest.h>

#include <cmath>

#include "phase_indices.h"

namespace granary::scale
{
namespace
{

constexpr const char* kGroupBySql = "SELECT RegionID, count(*) FROM hits GROUP BY RegionID";

ScalingRow rowAt(size_t threads, const std::string& sql)
{
    ScalingRow row;
    row.query = "Q0";
    row.sql = sql;
    row.threads = threads;
    row.best_seconds = 1;
    row.medians.work_seconds = 1;
    return row;
}

/// Q0, the two-phase query of inflation_model_test.cpp (T(16) = 0.831875 s, T(192) =
/// 0.24984375 s with I(16) = 1.25, I(64) = 1.5), its SQL spread over lines; Q1, a query the
/// inflation CSV lacks, fitted as T(p) = 1 + 9/p; Q2, every run failed.
std::vector<QueryAnalysis> sampleAnalyses()
{
    ScalingRow one = rowAt(1, "SELECT RegionID, count(*)\n  FROM hits\n  GROUP BY RegionID");
    one.medians.phase_work_seconds[kPartial] = 8;
    one.medians.phase_work_seconds[kMerge] = 0.4;
    one.medians.phase_span_seconds[kPlan] = 0.01;
    one.medians.phase_span_seconds[kResult] = 0.02;
    one.outside_phases_seconds = 0.005;
    ScalingRow most = rowAt(64, one.sql);
    most.medians.phase_span_seconds[kPartial] = 0.05;
    most.medians.phase_span_seconds[kMerge] = 0.1;

    QueryAnalysis matched;
    matched.query = "Q0";
    matched.rows = {one, most};
    QueryAnalysis unmatched;
    unmatched.query = "Q1";
    unmatched.rows = {rowAt(1, "SELECT 2")};
    unmatched.model = ScalingModel{1, 9, 0, false, 0, 2};
    QueryAnalysis failed;
    failed.query = "Q2";
    return {matched, unmatched, failed};
}

std::vector<InflationRow> sampleInflation()
{
    std::vector<InflationRow> rows;
    for (const auto& [threads, inflation] : {std::pair{1, 1.0}, {16, 1.25}, {64, 1.5}})
    {
        rows.push_back({"default", "Q7", static_cast<size_t>(threads), 0, 0, inflation,
                        std::nullopt, kGroupBySql});
    }
    return rows;
}

const std::vector<size_t> kPredictAt = {80, 112, 240, 480};

TEST(InflationPredictions, AddsTheStepsThreadCounts)
{
    EXPECT_EQ(inflationPredictionThreads(kPredictAt),
              (std::vector<size_t>{16, 80, 112, 192, 240, 480}));
    EXPECT_EQ(inflationPredictionThreads(std::vector<size_t>{192, 16}),
              (std::vector<size_t>{16, 192}));
}

TEST(InflationPredictions, InflationModelWhereTheSqlMatchesFittedElsewhere)
{
    const std::vector<size_t> threads = inflationPredictionThreads(kPredictAt);
    const std::vector<QueryPrediction> predictions =
        predictWithInflation(sampleAnalyses(), sampleInflation(), threads);
    ASSERT_EQ(predictions.size(), 3u);

    const QueryPrediction& q0 = predictions[0];
    EXPECT_EQ(q0.model, PredictionModel::kInflation);
    EXPECT_EQ(q0.inflation_query, "default Q7");
    ASSERT_EQ(q0.times.size(), threads.size());
    EXPECT_EQ(q0.times[0].threads, 16u);
    EXPECT_NEAR(q0.times[0].seconds, 0.831875, 1e-12);
    EXPECT_NEAR(q0.times[0].speedup, 8.435 / 0.831875, 1e-9);
    EXPECT_NEAR(q0.times[3].seconds, 0.24984375, 1e-12);
    EXPECT_NEAR(q0.step_speedup, 0.831875 / 0.24984375, 1e-9);

    const QueryPrediction& q1 = predictions[1];
    EXPECT_EQ(q1.model, PredictionModel::kFitted);
    EXPECT_EQ(q1.inflation_query, "");
    EXPECT_NEAR(q1.times[0].seconds, 1 + 9.0 / 16, 1e-12);
    EXPECT_NEAR(q1.step_speedup, (1 + 9.0 / 16) / (1 + 9.0 / 192), 1e-12);

    EXPECT_EQ(predictions[2].model, PredictionModel::kNone);
    EXPECT_TRUE(predictions[2].times.empty());
}

TEST(InflationPredictions, GeometricMeanOfTheStepOverMatchedQueriesOnly)
{
    std::vector<QueryPrediction> predictions(4);
    predictions[0].model = PredictionModel::kInflation;
    predictions[0].step_speedup = 4;
    predictions[1].model = PredictionModel::kInflation;
    predictions[1].step_speedup = 9;
    predictions[2].model = PredictionModel::kFitted;
    predictions[2].step_speedup = 100;
    EXPECT_DOUBLE_EQ(stepSpeedupGeometricMean(predictions), 6);  // sqrt(4 * 9)
    EXPECT_EQ(stepSpeedupGeometricMean(std::vector<QueryPrediction>(2)), 0);
}

TEST(InflationPredictions, CsvAndSummary)
{
    const std::vector<size_t> threads = inflationPredictionThreads(kPredictAt);
    const std::vector<QueryPrediction> predictions =
        predictWithInflation(sampleAnalyses(), sampleInflation(), threads);
    const std::string csv = inflationPredictionsCsv(predictions, threads);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "query,model,inflation_query,seconds_at_16,seconds_at_80,seconds_at_112,"
              "seconds_at_192,seconds_at_240,seconds_at_480,speedup_at_16,speedup_at_80,"
              "speedup_at_112,speedup_at_192,speedup_at_240,speedup_at_480,speedup_16_to_192");
    EXPECT_NE(csv.find("\nQ0,inflation,default Q7,0.831875,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nQ1,fitted,,1.5625,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nQ2,none,,,,,,,,,,,,,,\n"), std::string::npos) << csv;

    const std::string summary = inflationPredictionsSummary(predictions);
    for (const char* expected :
         {"Q0 [inflation model, default Q7]: predicted speedup 16:10.1x", "16->192 threads 3.33x\n",
          "Q1 [fitted model: no inflation row has its SQL]", "16->192 threads 1.49x\n",
          "Q2 [no model]\n",
          "16->192 threads, inflation model: geometric mean 3.33x over 1 of 3 queries (target "
          ">= 6x: MISSES"})
    {
        EXPECT_NE(summary.find(expected), std::string::npos) << expected << "\n" << summary;
    }
}

}  // namespace
}  // namespace granary::scale
