#include "programs/scale/outside_phases.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "programs/scale/csv_record.h"

namespace granary::scale
{

std::vector<OutsidePhasesRow> outsidePhasesTable(std::span<const ScalingRow> rows)
{
    std::vector<OutsidePhasesRow> table;
    for (const ScalingRow& row : rows)
    {
        if (!row.failed() && row.best_seconds > 0)
        {
            table.push_back({row.query, row.threads, row.best_seconds, row.outside_phases_seconds});
        }
    }
    return table;
}

std::string outsidePhasesCsv(std::span<const OutsidePhasesRow> table)
{
    std::string csv = "query,threads,query_ms,outside_ms,outside_percent,over_5_percent\n";
    for (const OutsidePhasesRow& row : table)
    {
        csv += fmt::format("{},{},{},{},{},{}\n", quoteCsvField(row.query), row.threads,
                           row.query_seconds * 1e3, row.outside_seconds * 1e3, row.share() * 100,
                           row.overLimit() ? 1 : 0);
    }
    return csv;
}

std::string outsidePhasesSummary(std::span<const OutsidePhasesRow> table)
{
    std::map<size_t, const OutsidePhasesRow*> largest_by_threads;
    for (const OutsidePhasesRow& row : table)
    {
        const OutsidePhasesRow*& largest = largest_by_threads[row.threads];
        if (largest == nullptr || row.share() > largest->share())
        {
            largest = &row;
        }
    }
    std::string summary = "time outside reported phases, largest share per thread count:";
    for (const auto& [threads, row] : largest_by_threads)
    {
        summary += fmt::format(" {}:{:.1f}% ({})", threads, row->share() * 100, row->query);
    }
    const auto over = std::count_if(table.begin(), table.end(),
                                    [](const OutsidePhasesRow& row) { return row.overLimit(); });
    return summary + fmt::format("; {} of {} query x thread rows above {:.0f}%\n", over,
                                 table.size(), kOutsidePhasesLimit * 100);
}

}  // namespace granary::scale
