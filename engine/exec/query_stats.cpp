#include "engine/exec/query_stats.h"

#include <algorithm>
#include <cstdio>

namespace granary
{

std::string_view phaseName(QueryPhase phase)
{
    switch (phase)
    {
        case QueryPhase::kPlan:
            return "plan";
        case QueryPhase::kPartial:
            return "partial";
        case QueryPhase::kConvert:
            return "convert";
        case QueryPhase::kMerge:
            return "merge";
        case QueryPhase::kFinalize:
            return "finalize";
        case QueryPhase::kResult:
            return "result";
    }
    return "unknown";
}

std::string_view mergePathName(MergePath path)
{
    switch (path)
    {
        case MergePath::kNone:
            return "none";
        case MergePath::kSerial:
            return "serial";
        case MergePath::kParallelConvertMixed:
            return "parallel_convert_mixed";
        case MergePath::kParallelConvertAllSingle:
            return "parallel_convert_all_single";
        case MergePath::kParallelTwoLevel:
            return "parallel_two_level";
        case MergePath::kParallelFixedRanges:
            return "parallel_fixed_ranges";
        case MergePath::kSerialThenParallel:
            return "serial_then_parallel";
        case MergePath::kValueBuckets:
            return "value_buckets";
    }
    return "unknown";
}

double PhaseStats::medianTaskSeconds() const
{
    if (task_samples.empty())
    {
        return 0;
    }
    std::vector<double> chains;
    chains.reserve(task_samples.size());
    for (const TaskSample& sample : task_samples)
    {
        chains.push_back(sample.chain_seconds);
    }
    const auto middle = chains.begin() + static_cast<std::ptrdiff_t>(chains.size() / 2);
    std::nth_element(chains.begin(), middle, chains.end());
    return *middle;
}

const TaskSample* PhaseStats::longestTask() const
{
    const auto longest = std::max_element(task_samples.begin(), task_samples.end(),
                                          [](const TaskSample& a, const TaskSample& b)
                                          { return a.chain_seconds < b.chain_seconds; });
    return longest == task_samples.end() ? nullptr : &*longest;
}

double PhaseStats::longestFaultlessTaskSeconds() const
{
    double longest = 0;
    for (const TaskSample& sample : task_samples)
    {
        if (!sample.faulted)
        {
            longest = std::max(longest, sample.chain_seconds);
        }
    }
    return longest;
}

size_t PhaseStats::faultingTasks() const
{
    return static_cast<size_t>(std::count_if(task_samples.begin(), task_samples.end(),
                                             [](const TaskSample& s) { return s.faulted; }));
}

namespace
{

/// Sets a serial phase that took `seconds` of the statement's own thread.
void setSerialPhase(PhaseStats& phase, double seconds)
{
    phase.wall_seconds = seconds;
    phase.work_seconds = seconds;
    phase.span_seconds = seconds;
}

}  // namespace

void QueryStats::accountQueryWall(int64_t start_ns, int64_t end_ns)
{
    std::vector<WallInterval> intervals;
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        const auto& phase_intervals = phases[i].intervals;
        intervals.insert(intervals.end(), phase_intervals.begin(), phase_intervals.end());
    }
    std::sort(intervals.begin(), intervals.end(),
              [](const WallInterval& a, const WallInterval& b) { return a.start_ns < b.start_ns; });
    query_seconds = static_cast<double>(end_ns - start_ns) * 1e-9;
    if (intervals.empty())
    {
        setSerialPhase(phase(QueryPhase::kPlan), query_seconds);
        setSerialPhase(phase(QueryPhase::kResult), 0);
        outside_phases_seconds = 0;
        return;
    }
    // The union of the intervals (recorders of a phase may nest or repeat): what it leaves
    // between the first start and the last end is time no phase explains.
    int64_t covered_ns = 0;
    int64_t reach_ns = intervals.front().start_ns;
    for (const WallInterval& interval : intervals)
    {
        const int64_t from = std::max(interval.start_ns, reach_ns);
        covered_ns += std::max<int64_t>(0, interval.end_ns - from);
        reach_ns = std::max(reach_ns, interval.end_ns);
    }
    const int64_t first_ns = std::max(start_ns, intervals.front().start_ns);
    const int64_t last_ns = std::min(end_ns, reach_ns);
    setSerialPhase(phase(QueryPhase::kPlan), static_cast<double>(first_ns - start_ns) * 1e-9);
    setSerialPhase(phase(QueryPhase::kResult), static_cast<double>(end_ns - last_ns) * 1e-9);
    outside_phases_seconds =
        static_cast<double>(std::max<int64_t>(0, (last_ns - first_ns) - covered_ns)) * 1e-9;
}

double QueryStats::totalWork() const
{
    double total = 0;
    for (const PhaseStats& p : phases)
    {
        total += p.work_seconds;
    }
    return total;
}

double QueryStats::totalSpan() const
{
    double total = 0;
    for (const PhaseStats& p : phases)
    {
        total += p.span_seconds;
    }
    return total;
}

double QueryStats::totalWall() const
{
    double total = 0;
    for (const PhaseStats& p : phases)
    {
        total += p.wall_seconds;
    }
    return total;
}

double ExchangeStats::imbalance() const
{
    if (per_rank.empty())
    {
        return 0;
    }
    double total = 0;
    double slowest = 0;
    for (const Rank& rank : per_rank)
    {
        total += rank.local_seconds;
        slowest = std::max(slowest, rank.local_seconds);
    }
    return total > 0 ? slowest / (total / static_cast<double>(per_rank.size())) : 1.0;
}

std::string QueryStats::longestTasksText() const
{
    std::string out;
    char line[256];
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        const TaskSample* task = phases[i].longestTask();
        if (task == nullptr || phases[i].tasks < 2)
        {
            continue;
        }
        std::snprintf(line, sizeof(line),
                      "longest %s task: #%zu, chain %.3f ms (own %.3f), rows %zu, groups %zu, "
                      "growths %zu, page faults %zu\n",
                      std::string(phaseName(static_cast<QueryPhase>(i))).c_str(), task->index,
                      task->chain_seconds * 1e3, task->own_seconds * 1e3, task->facts.rows,
                      task->facts.groups, task->facts.growths, task->page_faults);
        out += line;
    }
    return out;
}

std::string QueryStats::toString() const
{
    std::string out;
    char line[256];
    std::snprintf(line, sizeof(line), "%-9s %10s %10s %10s %8s %9s %11s %8s %14s\n", "phase",
                  "wall_ms", "work_ms", "span_ms", "tasks", "work/span", "median_task", "faulting",
                  "faultless_span");
    out += line;
    for (size_t i = 0; i < kQueryPhaseCount; ++i)
    {
        const PhaseStats& p = phases[i];
        std::snprintf(
            line, sizeof(line), "%-9s %10.3f %10.3f %10.3f %8zu %9.1f %11.3f %8zu %14.3f\n",
            std::string(phaseName(static_cast<QueryPhase>(i))).c_str(), p.wall_seconds * 1e3,
            p.work_seconds * 1e3, p.span_seconds * 1e3, p.tasks,
            p.span_seconds > 0 ? p.work_seconds / p.span_seconds : 0.0, p.medianTaskSeconds() * 1e3,
            p.faultingTasks(), p.longestFaultlessTaskSeconds() * 1e3);
        out += line;
    }
    std::snprintf(line, sizeof(line), "%-9s %10.3f %10.3f %10.3f %8s %9.1f\n", "total",
                  totalWall() * 1e3, totalWork() * 1e3, totalSpan() * 1e3, "",
                  totalSpan() > 0 ? totalWork() / totalSpan() : 0.0);
    out += line;
    if (query_seconds > 0)
    {
        std::snprintf(line, sizeof(line), "query %.3f ms, outside every phase %.3f ms (%.1f%%)\n",
                      query_seconds * 1e3, outside_phases_seconds * 1e3,
                      100 * outside_phases_seconds / query_seconds);
        out += line;
    }
    out += longestTasksText();
    std::snprintf(line, sizeof(line),
                  "partials %zu (single-level %zu, two-level %zu, routed %zu), merge path %s\n",
                  partials, single_level_partials, two_level_partials, routed_partials,
                  std::string(mergePathName(merge_path)).c_str());
    out += line;
    if (!group_keys.empty())
    {
        out += "group keys (" + std::to_string(group_keys.size()) + "):";
        for (const std::string& key : group_keys)
        {
            out += " " + key;
        }
        out += "\n";
    }
    if (!aggregates.empty())
    {
        out += "aggregates (" + std::to_string(aggregates.size()) + "):";
        for (const std::string& aggregate : aggregates)
        {
            out += " " + aggregate;
        }
        out += "\n";
    }
    if (single_level_sets + two_level_sets > 0)
    {
        std::snprintf(line, sizeof(line),
                      "distinct sets: single-level %zu, two-level %zu, merge path %s\n",
                      single_level_sets, two_level_sets,
                      std::string(mergePathName(distinct_merge_path)).c_str());
        out += line;
    }
    if (exchange.ranks > 0)
    {
        std::snprintf(line, sizeof(line),
                      "exchange over %zu ranks: states %zu bytes, sent %zu, received %zu in %zu "
                      "rounds, %.3f ms; local work %.3f ms, imbalance %.2f\n",
                      exchange.ranks, exchange.state_bytes, exchange.bytes_sent,
                      exchange.bytes_received, exchange.rounds, exchange.exchange_seconds * 1e3,
                      exchange.local_seconds * 1e3, exchange.imbalance());
        out += line;
    }
    std::snprintf(line, sizeof(line), "rows in %zu, rows out %zu, peak tracked memory %zu bytes\n",
                  input_rows, result_rows, peak_memory_bytes);
    out += line;
    if (unfinalized_groups > 0)
    {
        std::snprintf(line, sizeof(line), "groups not finalized (outside the top): %zu\n",
                      unfinalized_groups);
        out += line;
    }
    if (aggregated_from_metadata)
    {
        out += "aggregates from part metadata: row counts, granule bounds (no scan)\n";
    }
    if (rows_outside_any_groups > 0)
    {
        std::snprintf(line, sizeof(line),
                      "rows not aggregated (keys outside the first LIMIT): %zu\n",
                      rows_outside_any_groups);
        out += line;
    }
    if (top_rows_morsels_skipped > 0)
    {
        std::snprintf(line, sizeof(line), "morsels not read (outside the top rows): %zu\n",
                      top_rows_morsels_skipped);
        out += line;
    }
    if (late_materialized_rows > 0)
    {
        std::snprintf(line, sizeof(line), "rows read late (the top rows' other columns): %zu\n",
                      late_materialized_rows);
        out += line;
    }
    if (partial_groups > 0)
    {
        std::snprintf(
            line, sizeof(line), "partial tables: %zu groups in %zu bytes (%.1f bytes per group)\n",
            partial_groups, partial_memory_bytes,
            static_cast<double>(partial_memory_bytes) / static_cast<double>(partial_groups));
        out += line;
    }
    if (partitioned_rows > 0)
    {
        out += "partitioned rows: " + std::to_string(partitioned_rows) + " in " +
               std::to_string(partitioned_bytes) + " bytes, " +
               std::to_string(partitioned_rows_aggregated_early) +
               " aggregated by the sole worker, the rest by bucket tasks\n";
    }
    if (resources.allocator_stats_available)
    {
        std::snprintf(line, sizeof(line),
                      "allocator: allocated %+lld B, resident %+lld B; page faults minor %llu "
                      "major %llu\n",
                      static_cast<long long>(resources.allocated_bytes),
                      static_cast<long long>(resources.resident_bytes),
                      static_cast<unsigned long long>(resources.minor_page_faults),
                      static_cast<unsigned long long>(resources.major_page_faults));
        out += line;
    }
    for (size_t i = 0; i < kProfileEventCount; ++i)
    {
        const auto event = static_cast<ProfileEvent>(i);
        if (profile_events[event] != 0)
        {
            std::snprintf(line, sizeof(line), "event %-24s %llu\n",
                          std::string(profileEventName(event)).c_str(),
                          static_cast<unsigned long long>(profile_events[event]));
            out += line;
        }
    }
    return out;
}

}  // namespace granary
