#pragma once

#include <string>
#include <vector>

#include "programs/scale/inflation_row.h"

namespace granary::scale
{

/// The targets: at 256 threads every query taking at least kBigQueryMs at 1 thread stays within
/// kQueryInflationTarget, and the geometric mean over all queries within kMeanInflationTarget.
inline constexpr double kQueryInflationTarget = 1.25;
inline constexpr double kMeanInflationTarget = 1.1;
inline constexpr double kBigQueryMs = 50;

/// One suite at one thread count, over the queries with a positive inflation there.
struct InflationSummaryRow
{
    std::string suite;
    size_t threads = 0;
    size_t queries = 0;
    double geometric_mean = 0;  ///< 0 when no query has an inflation here.
    double max_inflation = 0;
    std::string max_query;
    size_t big_queries = 0;                    ///< With one_thread_ms >= kBigQueryMs.
    std::vector<std::string> big_over_target;  ///< Of those, above kQueryInflationTarget.
};

/// Per suite (in order of first appearance) and thread count (ascending).
std::vector<InflationSummaryRow> summariseInflation(const std::vector<InflationRow>& rows);

/// inflation_summary.csv: a header and one line per summary row.
std::string inflationSummaryCsv(const std::vector<InflationSummaryRow>& summary);

/// The same as an aligned plain-text table, for the console.
std::string inflationSummaryTable(const std::vector<InflationSummaryRow>& summary);

}  // namespace granary::scale
