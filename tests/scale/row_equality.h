#pragma once

#include <tuple>
#include <vector>

#include "programs/scale/scaling_row.h"

namespace granary::scale::testing
{

/// Field-by-field equality of rows, written out here rather than taken from the code under test.
inline bool sameRow(const ScalingRow& a, const ScalingRow& b)
{
    const auto scalars = [](const ScalingRow& r)
    {
        return std::tie(r.query, r.sql, r.threads, r.runs, r.best_seconds, r.speedup, r.efficiency,
                        r.oversubscribed, r.work_seconds, r.span_seconds, r.outside_phases_seconds,
                        r.partials, r.merge_path, r.distinct_merge_path, r.result_rows,
                        r.peak_memory_bytes, r.minor_page_faults, r.events, r.error);
    };
    const auto medians = [](const ScalingRow& r)
    {
        return std::tie(r.medians.work_seconds, r.medians.span_seconds,
                        r.medians.phase_work_seconds, r.medians.phase_span_seconds);
    };
    if (scalars(a) != scalars(b) || medians(a) != medians(b))
    {
        return false;
    }
    for (size_t i = 0; i < a.phases.size(); ++i)
    {
        const PhaseStats& x = a.phases[i];
        const PhaseStats& y = b.phases[i];
        if (std::tie(x.wall_seconds, x.work_seconds, x.span_seconds, x.tasks) !=
            std::tie(y.wall_seconds, y.work_seconds, y.span_seconds, y.tasks))
        {
            return false;
        }
    }
    return true;
}

inline bool sameRows(const std::vector<ScalingRow>& a, const std::vector<ScalingRow>& b)
{
    if (a.size() != b.size())
    {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i)
    {
        if (!sameRow(a[i], b[i]))
        {
            return false;
        }
    }
    return true;
}

}  // namespace granary::scale::testing
