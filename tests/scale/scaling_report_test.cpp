#include "programs/scale/scaling_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/common/exception.h"
#include "programs/scale/scaling_analysis.h"
#include "programs/scale/scaling_csv.h"
#include "programs/scale/scaling_study.h"
#include "row_equality.h"
#include "xml_check.h"

namespace granary::scale
{
namespace
{

constexpr size_t kHardwareThreads = 4;
const std::vector<size_t> kPredictAt = {80, 112, 240, 480};

/// A synthetic engine. "amdahl": 9.8 s of perfectly divisible partial work and a 0.2 s serial
/// merge (f = 0.02). "pathology": the same partial work, but a serial convert that costs 5 ms
/// per partial and a merge whose span grows with the square of the partials (the seed's Q5).
/// Wall times on the "real" cores (<= 4) follow the same model as work and span.
QueryRun syntheticRun(const std::string& sql, size_t threads)
{
    const double p = static_cast<double>(threads);
    QueryRun run;
    QueryStats& stats = run.stats;
    stats.partials = threads;
    PhaseStats& partial = stats.phase(QueryPhase::kPartial);
    partial.work_seconds = 9.8;
    partial.span_seconds = 9.8 / 10000;
    partial.tasks = 10000;
    partial.wall_seconds = (9.8 - partial.span_seconds) / p + partial.span_seconds;
    PhaseStats& merge = stats.phase(QueryPhase::kMerge);
    if (sql == "amdahl")
    {
        merge.work_seconds = merge.span_seconds = merge.wall_seconds = 0.2;
    }
    else
    {
        PhaseStats& convert = stats.phase(QueryPhase::kConvert);
        convert.work_seconds = convert.span_seconds = convert.wall_seconds = 0.005 * p;
        merge.span_seconds = merge.wall_seconds = 1e-4 * p * p;
        merge.work_seconds = merge.span_seconds;
    }
    stats.profile_events[ProfileEvent::MergeTasks] = 256;
    run.seconds = stats.totalWall();
    return run;
}

std::vector<ScalingRow> syntheticStudy()
{
    StudyOptions options;
    options.threads = {1, 2, 4, 16, 64, 256};
    options.runs = 2;
    options.hardware_threads = kHardwareThreads;
    return runScalingStudy({{"Q0", "amdahl"}, {"Q1", "pathology"}}, options, syntheticRun);
}

TEST(ScalingStudy, KeepsTheBestRunAndRecordsFailures)
{
    int calls = 0;
    const QueryRunner runner = [&calls](const std::string&, size_t threads) -> QueryRun
    {
        ++calls;
        if (threads == 8)
        {
            throw Exception(ErrorCode::kMemoryLimitExceeded, "too many partials");
        }
        QueryRun run;
        run.seconds = (calls % 2 == 0 ? 1.0 : 2.0) / static_cast<double>(threads);
        return run;
    };
    StudyOptions options;
    options.threads = {2, 4, 8};
    options.runs = 2;
    options.hardware_threads = 4;
    size_t checkpoints = 0;
    options.after_query = [&checkpoints](const std::vector<ScalingRow>& so_far)
    {
        ++checkpoints;
        EXPECT_EQ(so_far.size(), 3 * checkpoints);
    };
    const std::vector<ScalingRow> rows =
        runScalingStudy(numberQueries({"x", "x"}), options, runner);
    EXPECT_EQ(checkpoints, 2u);
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[0].query, "Q0");
    EXPECT_EQ(rows[3].query, "Q1");
    EXPECT_DOUBLE_EQ(rows[0].best_seconds, 0.5);
    EXPECT_DOUBLE_EQ(rows[1].best_seconds, 0.25);
    // Speedups are relative to 2 threads, assumed perfect up to there.
    EXPECT_DOUBLE_EQ(rows[0].speedup, 2);
    EXPECT_DOUBLE_EQ(rows[1].speedup, 4);
    EXPECT_DOUBLE_EQ(rows[1].efficiency, 1);
    EXPECT_TRUE(rows[2].failed());
    EXPECT_TRUE(rows[2].oversubscribed);
    EXPECT_NE(rows[2].error.find("too many partials"), std::string::npos);
}

TEST(ScalingAnalysis, PredictsFromWorkAndSpanBeyondTheCores)
{
    const std::vector<ScalingRow> rows = syntheticStudy();
    const QueryAnalysis amdahl = analyseQuery("Q0", rows, kPredictAt);
    ASSERT_TRUE(amdahl.model.has_value()) << amdahl.model_error;
    EXPECT_NEAR(amdahl.estimate_calibration, 1, 1e-9);
    // The oracle: Amdahl with f = (0.2 + the partial span) / 10.
    const double f = (0.2 + 9.8 / 10000) / 10;
    EXPECT_NEAR(amdahl.model->serialFraction(), f, 0.002);
    ASSERT_EQ(amdahl.predictions.size(), kPredictAt.size());
    for (const Prediction& prediction : amdahl.predictions)
    {
        const double p = static_cast<double>(prediction.threads);
        EXPECT_NEAR(prediction.speedup, 1 / (f + (1 - f) / p), 0.05 * p / 2) << p;
    }
    EXPECT_EQ(amdahl.growingPhases(), "");
    EXPECT_FALSE(amdahl.merge_span_growth.superlinear());
}

TEST(ScalingAnalysis, FlagsPhasesAndMergesThatGrowWithThreads)
{
    const std::vector<ScalingRow> rows = syntheticStudy();
    const QueryAnalysis pathology = analyseQuery("Q1", rows, kPredictAt);
    ASSERT_TRUE(pathology.model.has_value());
    EXPECT_TRUE(pathology.model->uses_contention);
    EXPECT_LT(pathology.model->optimalThreads(), 256);
    EXPECT_TRUE(pathology.phase_growth[static_cast<size_t>(QueryPhase::kMerge)].grows);
    EXPECT_TRUE(pathology.phase_growth[static_cast<size_t>(QueryPhase::kConvert)].grows);
    EXPECT_FALSE(pathology.phase_growth[static_cast<size_t>(QueryPhase::kPartial)].grows);
    // convert (linear) + merge (quadratic): the exponent lies between, above the flag.
    EXPECT_GT(pathology.merge_span_growth.exponent, 1.15);
    EXPECT_TRUE(pathology.merge_span_growth.superlinear());
}

TEST(ScalingReport, WritesCsvPredictionsAndWellFormedPlots)
{
    const std::vector<ScalingRow> rows = syntheticStudy();
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("granary_scale_test_" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    MachineDescription machine;
    machine.cpu_model = "Synthetic CPU";
    machine.cores = kHardwareThreads;
    machine.hardware_threads = kHardwareThreads;
    const std::string summary = writeScalingReport(dir, rows, machine, kPredictAt);
    EXPECT_NE(summary.find("Q1:"), std::string::npos);
    EXPECT_NE(summary.find("GROWING PHASES"), std::string::npos);
    EXPECT_NE(summary.find("SUPERLINEAR"), std::string::npos);

    std::ifstream csv(dir / "scaling.csv");
    EXPECT_TRUE(testing::sameRows(readScalingCsv(csv), rows));

    const auto read = [](const std::filesystem::path& path)
    {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    EXPECT_NE(read(dir / "predictions.csv").find("speedup_at_480"), std::string::npos);
    EXPECT_NE(read(dir / "machine.json").find("Synthetic CPU"), std::string::npos);
    for (const char* query : {"Q0", "Q1"})
    {
        for (const char* kind : {"speedup", "phases", "work_span"})
        {
            const std::filesystem::path path = dir / (std::string(kind) + "_" + query + ".svg");
            const testing::XmlSummary xml = testing::checkXml(read(path));
            ASSERT_TRUE(xml.well_formed) << path << ": " << xml.problem;
            EXPECT_NE(xml.text.find("Synthetic CPU"), std::string::npos);
            EXPECT_GE(xml.elements.at("polyline"), 2u) << path;
        }
    }
    const testing::XmlSummary phases = testing::checkXml(read(dir / "phases_Q1.svg"));
    EXPECT_NE(phases.text.find("merge: GROWS"), std::string::npos);
    const testing::XmlSummary speedup = testing::checkXml(read(dir / "speedup_Q0.svg"));
    for (const char* label : {"ideal (linear)", "measured", "predicted at 480", "model: f="})
    {
        EXPECT_NE(speedup.text.find(label), std::string::npos) << label;
    }
    std::filesystem::remove_all(dir);
}

TEST(ScalingReport, AddsWorkPerSpanTimeOutsidePhasesAndInflationPredictions)
{
    const std::vector<ScalingRow> rows = syntheticStudy();
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("granary_scale_inflation_" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    // Only "amdahl" was measured, with no inflation: I(p) = 1.
    const std::vector<InflationRow> inflation = {
        {"default", "Q0", 1, 0, 0, 1.0, std::nullopt, "amdahl"},
        {"default", "Q0", 16, 0, 0, 1.0, std::nullopt, "amdahl"}};
    const std::string summary =
        writeScalingReport(dir, rows, MachineDescription{}, kPredictAt, inflation);
    // Work 10 s, span 0.2 + 9.8/10000 s in every run.
    EXPECT_NE(summary.find("work/span at 256 threads 49.76 (best run), 49.76 (median)"),
              std::string::npos)
        << summary;
    EXPECT_NE(summary.find("time outside reported phases"), std::string::npos) << summary;
    // T(p) = (9.8 - 0.00098)/p + 0.00098 + 0.2: T(16)/T(192) = 3.2276.
    EXPECT_NE(summary.find("Q0 [inflation model, default Q0]"), std::string::npos) << summary;
    EXPECT_NE(summary.find("16->192 threads 3.23x"), std::string::npos) << summary;
    EXPECT_NE(summary.find("Q1 [fitted model"), std::string::npos) << summary;
    EXPECT_NE(summary.find("geometric mean 3.23x over 1 of 2 queries"), std::string::npos)
        << summary;
    for (const char* file : {"outside_phases.csv", "inflation_predictions.csv"})
    {
        EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace granary::scale
