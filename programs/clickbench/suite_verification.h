#pragma once

#include <optional>
#include <vector>

#include "programs/clickbench/result_comparison.h"
#include "programs/clickbench/suite_runner.h"

namespace granary::clickbench
{

/// Compares each query's last result of `actual` with the same query's of `expected` (both
/// run with keep_results), reading ORDER BY and LIMIT from `actual`'s SQL and result column
/// names. nullopt for a query that failed on either side.
std::vector<std::optional<Comparison>> verifySuites(const SuiteRun& actual,
                                                    const SuiteRun& expected);

/// Queries that do not verify: differing results, or a failure on either side.
size_t countVerificationFailures(const SuiteRun& actual, const SuiteRun& expected,
                                 const std::vector<std::optional<Comparison>>& comparisons);

}  // namespace granary::clickbench
