#include "programs/scale/run_medians.h"

#include <algorithm>

namespace granary::scale
{

namespace
{

/// The median of one figure of every run.
template <typename Figure>
double medianOf(std::span<const QueryStats> runs, Figure figure)
{
    std::vector<double> values;
    values.reserve(runs.size());
    for (const QueryStats& run : runs)
    {
        values.push_back(figure(run));
    }
    return median(std::move(values));
}

}  // namespace

double median(std::vector<double> values)
{
    if (values.empty())
    {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

RunMedians medianOfRuns(std::span<const QueryStats> runs)
{
    RunMedians medians;
    medians.work_seconds = medianOf(runs, [](const QueryStats& s) { return s.totalWork(); });
    medians.span_seconds = medianOf(runs, [](const QueryStats& s) { return s.totalSpan(); });
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        medians.phase_work_seconds[i] =
            medianOf(runs, [i](const QueryStats& s) { return s.phases[i].work_seconds; });
        medians.phase_span_seconds[i] =
            medianOf(runs, [i](const QueryStats& s) { return s.phases[i].span_seconds; });
    }
    return medians;
}

}  // namespace granary::scale
