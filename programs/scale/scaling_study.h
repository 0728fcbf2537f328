#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/exec/query_stats.h"
#include "programs/scale/scaling_row.h"

namespace granary::scale
{

struct StudyQuery
{
    std::string id;  ///< "Q0", "Q1", ...: position in the file, numbered from 0 as ClickBench does.
    std::string sql;
};

/// Names queries by their position: Q0, Q1, ...
std::vector<StudyQuery> numberQueries(const std::vector<std::string>& sql);

/// One execution of a query: its wall time and statistics.
struct QueryRun
{
    double seconds = 0;
    size_t result_rows = 0;
    QueryStats stats;
};

/// Runs `sql` with `threads` threads; throws granary::Exception on failure.
using QueryRunner = std::function<QueryRun(const std::string& sql, size_t threads)>;

struct StudyOptions
{
    std::vector<size_t> threads;
    size_t runs = 3;
    size_t hardware_threads = 1;  ///< Counts above this are marked oversubscribed.
    std::function<void(std::string_view line)> progress;  ///< Optional.
    /// Optional: called after each query with every row so far (speedups filled in), e.g. to
    /// checkpoint scaling.csv so that a run cut short keeps what it measured.
    std::function<void(const std::vector<ScalingRow>& rows)> after_query;
};

/// Every query at every thread count, `runs` times each; a row keeps the best run's statistics
/// and the medians over its successful runs (RunMedians). A failing run records its error in the
/// row and the study goes on. Speedups and efficiencies are filled in (computeSpeedups).
std::vector<ScalingRow> runScalingStudy(const std::vector<StudyQuery>& queries,
                                        const StudyOptions& options, const QueryRunner& runner);

/// The row of one successful run; its medians are left unset (they take every run).
ScalingRow rowFromRun(const StudyQuery& query, size_t threads, const QueryRun& run);

/// Per query: speedup = (time at the lowest thread count b) * b / time, assuming the first b
/// threads scaled perfectly (b is 1 in any complete study); efficiency = speedup / threads.
void computeSpeedups(std::vector<ScalingRow>& rows);

}  // namespace granary::scale
