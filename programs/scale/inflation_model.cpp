#include "programs/scale/inflation_model.h"

#include <algorithm>

namespace granary::scale
{

namespace
{

/// A row from a scaling.csv without medians (all 0 though the query did work) has only its
/// best run's figures; they stand in.
RunMedians medianFigures(const ScalingRow& row)
{
    if (row.medians.work_seconds > 0 || !(row.work_seconds > 0))
    {
        return row.medians;
    }
    RunMedians best{row.work_seconds, row.span_seconds, {}, {}};
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        best.phase_work_seconds[i] = row.phases[i].work_seconds;
        best.phase_span_seconds[i] = row.phases[i].span_seconds;
    }
    return best;
}

}  // namespace

double InflationModel::time(double threads) const
{
    const double inflation_factor = inflation.at(threads);
    double total = serial_seconds;
    for (const ModelPhase& phase : phases)
    {
        const double inflated_work = phase.one_thread_work_seconds * inflation_factor;
        total += std::max(0.0, inflated_work - phase.span_seconds) / threads + phase.span_seconds;
    }
    return total;
}

double InflationModel::speedup(double threads) const
{
    const double at_threads = time(threads);
    return at_threads > 0 ? time(1) / at_threads : 0;
}

InflationModel inflationModelOf(std::span<const ScalingRow> rows, InflationCurve inflation)
{
    const ScalingRow& lowest = rows.front();
    const RunMedians base = medianFigures(lowest);
    const RunMedians most = medianFigures(rows.back());
    const double base_inflation = inflation.at(static_cast<double>(lowest.threads));
    InflationModel model;
    model.serial_seconds = base.phase_span_seconds[static_cast<size_t>(QueryPhase::kPlan)] +
                           base.phase_span_seconds[static_cast<size_t>(QueryPhase::kResult)] +
                           lowest.outside_phases_seconds;
    for (const QueryPhase phase : kParallelPhases)
    {
        const size_t i = static_cast<size_t>(phase);
        model.phases.push_back(
            {phase, base.phase_work_seconds[i] / base_inflation, most.phase_span_seconds[i]});
    }
    model.inflation = std::move(inflation);
    return model;
}

}  // namespace granary::scale
