#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engine/exec/query_stats.h"
#include "engine/observe/profile_event.h"
#include "programs/scale/run_medians.h"

namespace granary::scale
{

/// The ProfileEvents scaling.csv reports: what changes with the number of partials.
inline constexpr std::array kEventsOfInterest = {
    ProfileEvent::RowsRead,         ProfileEvent::GranulesSkipped,
    ProfileEvent::HashTableResizes, ProfileEvent::TwoLevelConversions,
    ProfileEvent::MergeTasks,       ProfileEvent::ArenaBytes,
};

/// One query at one thread count: its best run and that run's statistics, and medians over all
/// its successful runs.
struct ScalingRow
{
    std::string query;  ///< "Q5": position in the query file, from 0 as ClickBench numbers them.
    std::string sql;
    size_t threads = 0;
    size_t runs = 0;
    double best_seconds = 0;
    double speedup = 0;     ///< Against the query's lowest thread count (scaled by that count).
    double efficiency = 0;  ///< speedup / threads.
    bool oversubscribed = false;  ///< More threads than the machine has hardware threads.
    double work_seconds = 0;
    double span_seconds = 0;
    std::array<PhaseStats, kQueryPhaseCount> phases{};
    /// Over every successful run; all 0 where unknown (read from a scaling.csv older than them).
    RunMedians medians;
    /// Wall time of the run between its phases that no phase covered (QueryStats).
    double outside_phases_seconds = 0;
    size_t partials = 0;
    std::string merge_path;
    std::string distinct_merge_path;
    size_t result_rows = 0;
    size_t peak_memory_bytes = 0;
    uint64_t minor_page_faults = 0;
    std::array<uint64_t, kEventsOfInterest.size()> events{};
    std::string error;  ///< Non-empty when every run failed; the figures are then zero.

    bool failed() const { return !error.empty(); }
    /// The best run's work / span: the speedup unlimited cores could give that run; 0 without
    /// a span.
    double workPerSpan() const { return ratio(work_seconds, span_seconds); }
    /// The same from the medians, less at the mercy of one unlucky schedule; 0 where unknown.
    double workPerMedianSpan() const { return ratio(medians.work_seconds, medians.span_seconds); }
    const PhaseStats& phase(QueryPhase p) const { return phases[static_cast<size_t>(p)]; }

private:
    static double ratio(double work, double span) { return span > 0 ? work / span : 0; }
};

}  // namespace granary::scale
