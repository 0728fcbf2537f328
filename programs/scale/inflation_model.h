#pragma once

#include <array>
#include <span>
#include <vector>

#include "engine/exec/query_stats.h"
#include "programs/scale/inflation_curve.h"
#include "programs/scale/scaling_row.h"

namespace granary::scale
{

/// The phases whose work the query's threads share; plan and result run on one thread.
inline constexpr std::array kParallelPhases = {QueryPhase::kPartial, QueryPhase::kConvert,
                                               QueryPhase::kMerge, QueryPhase::kFinalize};

/// One parallel phase as the model sees it.
struct ModelPhase
{
    QueryPhase phase = QueryPhase::kPartial;
    double one_thread_work_seconds = 0;  ///< W: its work on 1 thread.
    double span_seconds = 0;             ///< S: its span at the most threads measured.
};

/// A query's time on p cores from its measured work and span and its instruction inflation:
/// T(p) = serial + Σ_phase [ max(0, W·I(p) − S) / p + S ], Brent's greedy-scheduling bound per
/// phase with the work inflated as the instruction counts say (docs/scaling.md).
struct InflationModel
{
    double serial_seconds = 0;  ///< Plan, result and the time outside phases.
    std::vector<ModelPhase> phases;
    InflationCurve inflation;

    double time(double threads) const;
    /// time(1) / time(threads).
    double speedup(double threads) const;
};

/// The model of one query from its successful rows, sorted by thread count (not empty), using
/// each row's medians (its best run's figures where a scaling.csv older than the medians left
/// them unknown). W comes from the lowest row b, its median work divided by I(b) unless b is 1;
/// S from the row with the most threads, assuming spans do not shrink with more partials; the
/// serial time is row b's plan and result spans and its time outside phases.
InflationModel inflationModelOf(std::span<const ScalingRow> rows, InflationCurve inflation);

}  // namespace granary::scale
