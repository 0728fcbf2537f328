#pragma once

#include <span>
#include <string>
#include <vector>

#include "programs/scale/scaling_row.h"

namespace granary::scale
{

/// A query's time outside its reported phases above this share of its wall time means the
/// phases leave out work worth finding.
inline constexpr double kOutsidePhasesLimit = 0.05;

/// One query at one thread count: how much of its wall time no phase explains.
struct OutsidePhasesRow
{
    std::string query;
    size_t threads = 0;
    /// The best run's statement wall time (Session's, parse to result block; best_seconds).
    double query_seconds = 0;
    /// Of it, the gaps between phases (QueryStats::outside_phases_seconds, same run).
    double outside_seconds = 0;

    double share() const { return query_seconds > 0 ? outside_seconds / query_seconds : 0; }
    bool overLimit() const { return share() > kOutsidePhasesLimit; }
};

/// One row per successful scaling row, in their order.
std::vector<OutsidePhasesRow> outsidePhasesTable(std::span<const ScalingRow> rows);

/// outside_phases.csv: query, threads, query_ms, outside_ms, outside_percent, over_5_percent.
std::string outsidePhasesCsv(std::span<const OutsidePhasesRow> table);

/// For the console: the largest share at each thread count (ascending) and its query, and how
/// many rows are over kOutsidePhasesLimit.
std::string outsidePhasesSummary(std::span<const OutsidePhasesRow> table);

}  // namespace granary::scale
