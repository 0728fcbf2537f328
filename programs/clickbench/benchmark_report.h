#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "programs/clickbench/result_comparison.h"
#include "programs/clickbench/suite_runner.h"

namespace granary::clickbench
{

/// The fields of ClickBench's result JSON that do not come from the runs.
struct ReportInfo
{
    std::string system = "Granary";
    std::string date;  ///< YYYY-MM-DD.
    std::string machine;
    std::vector<std::string> tags;
    double load_time_seconds = 0;
    uint64_t data_size_bytes = 0;
    std::string comment;
};

/// ClickBench's result JSON (../shared/clickbench/PROVENANCE.md): one row of run times in
/// seconds per query, null for a failed run; concurrency fields null (not measured).
nlohmann::json clickBenchJson(const SuiteRun& suite, const ReportInfo& info);

/// Today's local date as YYYY-MM-DD.
std::string todayDate();

/// Geometric mean; nullopt for no values. Values are floored at 1 µs so that a 0 s timing
/// cannot zero the mean.
std::optional<double> geometricMean(const std::vector<double>& values);

/// Geometric mean of each successful query's best time.
std::optional<double> geometricMeanOfBest(const SuiteRun& suite);

/// One line per query: number, each run's time, rows returned (or the error); then the
/// geometric mean of the best times.
void printSuiteTable(std::ostream& out, const SuiteRun& suite);

/// Both engines' best times per query, their ratio (Granary / DuckDB, below 1 means Granary
/// is faster), the verification outcome where `comparisons` has one; then the geometric mean
/// of the ratios over the queries both engines ran.
void printComparisonTable(std::ostream& out, const SuiteRun& granary, const SuiteRun& duckdb,
                          const std::vector<std::optional<Comparison>>& comparisons);

}  // namespace granary::clickbench
