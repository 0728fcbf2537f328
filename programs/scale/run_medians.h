#pragma once

#include <array>
#include <span>
#include <vector>

#include "engine/exec/query_stats.h"

namespace granary::scale
{

/// Medians over the successful runs of one query at one thread count. A single run's span is
/// the critical path of one schedule: on a shared or oversubscribed machine one descheduled
/// task lengthens it, so the best run by wall time may carry an unlucky span. Each figure is
/// its own median (the phases' medians need not add up to the total's).
struct RunMedians
{
    double work_seconds = 0;
    double span_seconds = 0;
    std::array<double, kQueryPhaseCount> phase_work_seconds{};
    std::array<double, kQueryPhaseCount> phase_span_seconds{};
};

/// The middle value, or the mean of the two middle ones for an even count; 0 for none.
double median(std::vector<double> values);

/// The medians of `runs`' total work and span and of every phase's work and span.
RunMedians medianOfRuns(std::span<const QueryStats> runs);

}  // namespace granary::scale
