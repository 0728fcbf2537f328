#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace granary::scale
{

/// One query at one shape (ranks × threads per rank) of a `granary mpi-query` run, from its
/// --json report.
struct RankRun
{
    std::string query;  ///< "Q0", "Q1", ...: position in the file, as the thread study names it.
    std::string sql;
    size_t ranks = 0;
    size_t threads = 0;
    double seconds = 0;  ///< The best run, at rank 0.
    /// The ranks' wall time outside collectives (scan, partial aggregation, merge, top-N),
    /// summed over the ranks.
    double local_work_seconds = 0;
    double exchange_seconds = 0;  ///< The slowest rank's time in collectives, waiting included.
    size_t state_bytes = 0;       ///< Partial states produced, summed over the ranks.
    size_t bytes_sent = 0;        ///< Between ranks, summed over the ranks.
    double imbalance = 0;         ///< The slowest rank's local work over the mean.
    std::string error;            ///< A failed query: its error; nothing else is set.
};

/// The records of one `mpi-query --json` report, run with `ranks` ranks of `threads` threads.
/// Exception(kIncorrectData) for a report that is not one.
std::vector<RankRun> readMpiQueryReport(const nlohmann::json& report, size_t ranks, size_t threads);

/// The exchange model: P nodes, each as fast as one rank of `run`, share its local work
/// evenly, and each sends what a rank of `run` sent on average, over a network of
/// `bytes_per_second` per node: W / P + (bytes sent / ranks) / bandwidth. The bytes are an
/// upper bound where groups are few (every node then holds every key), about right where each
/// node's groups are its own.
double predictNodesSeconds(const RankRun& run, size_t nodes, double bytes_per_second);

/// rank_scaling.csv: a row per query and shape (time, the ratio to the query's first shape,
/// exchange, bytes, imbalance, the model at each of `nodes`).
void writeRankSweepCsv(const std::vector<RankRun>& runs, const std::vector<size_t>& nodes,
                       double bytes_per_second, std::ostream& out);

/// The same as an aligned table for the terminal, and a geometric mean per shape of the ratio
/// to the first shape.
std::string rankSweepTable(const std::vector<RankRun>& runs, const std::vector<size_t>& nodes,
                           double bytes_per_second);

/// One query's time against ranks, a series per thread count, with the model's predictions at
/// `nodes` (dashed, from each thread count's run with the most ranks); `subtitle` names the
/// machine.
std::string rankSweepSvg(const std::vector<RankRun>& query_runs, const std::vector<size_t>& nodes,
                         double bytes_per_second, const std::string& subtitle);

}  // namespace granary::scale
