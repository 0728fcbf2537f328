#include "programs/scale/scaling_study.h"

#include <fmt/format.h>

#include <exception>
#include <map>

namespace granary::scale
{

std::vector<StudyQuery> numberQueries(const std::vector<std::string>& sql)
{
    std::vector<StudyQuery> queries;
    for (const std::string& text : sql)
    {
        queries.push_back({"Q" + std::to_string(queries.size()), text});
    }
    return queries;
}

ScalingRow rowFromRun(const StudyQuery& query, size_t threads, const QueryRun& run)
{
    const QueryStats& stats = run.stats;
    ScalingRow row;
    row.query = query.id;
    row.sql = query.sql;
    row.threads = threads;
    row.best_seconds = run.seconds;
    row.work_seconds = stats.totalWork();
    row.span_seconds = stats.totalSpan();
    row.phases = stats.phases;
    row.outside_phases_seconds = stats.outside_phases_seconds;
    row.partials = stats.partials;
    row.merge_path = mergePathName(stats.merge_path);
    row.distinct_merge_path = mergePathName(stats.distinct_merge_path);
    row.result_rows = run.result_rows;
    row.peak_memory_bytes = stats.peak_memory_bytes;
    row.minor_page_faults = stats.resources.minor_page_faults;
    for (size_t i = 0; i < kEventsOfInterest.size(); ++i)
    {
        row.events[i] = stats.profile_events[kEventsOfInterest[i]];
    }
    return row;
}

namespace
{

/// One query at one thread count, `options.runs` times: the best run's row, with the medians of
/// every successful run, or the last error where none succeeded.
ScalingRow measureRow(const StudyQuery& query, size_t threads, const StudyOptions& options,
                      const QueryRunner& runner)
{
    ScalingRow best;
    std::vector<QueryStats> succeeded;
    std::string last_error;
    for (size_t run_index = 0; run_index < options.runs; ++run_index)
    {
        try
        {
            QueryRun run = runner(query.sql, threads);
            if (succeeded.empty() || run.seconds < best.best_seconds)
            {
                best = rowFromRun(query, threads, run);
            }
            succeeded.push_back(std::move(run.stats));
        }
        catch (const std::exception& error)
        {
            last_error = error.what();
        }
    }
    if (succeeded.empty())
    {
        best.query = query.id;
        best.sql = query.sql;
        best.threads = threads;
        best.error = last_error.empty() ? "no run" : last_error;
    }
    best.medians = medianOfRuns(succeeded);
    best.runs = options.runs;
    best.oversubscribed = threads > options.hardware_threads;
    return best;
}

std::string progressLine(const ScalingRow& row)
{
    return row.failed() ? fmt::format("{} threads={}: error: {}", row.query, row.threads, row.error)
                        : fmt::format("{} threads={}: best {:.4f} s of {} runs", row.query,
                                      row.threads, row.best_seconds, row.runs);
}

}  // namespace

std::vector<ScalingRow> runScalingStudy(const std::vector<StudyQuery>& queries,
                                        const StudyOptions& options, const QueryRunner& runner)
{
    std::vector<ScalingRow> rows;
    for (const StudyQuery& query : queries)
    {
        for (size_t threads : options.threads)
        {
            rows.push_back(measureRow(query, threads, options, runner));
            if (options.progress)
            {
                options.progress(progressLine(rows.back()));
            }
        }
        if (options.after_query)
        {
            std::vector<ScalingRow> so_far = rows;
            computeSpeedups(so_far);
            options.after_query(so_far);
        }
    }
    computeSpeedups(rows);
    return rows;
}

void computeSpeedups(std::vector<ScalingRow>& rows)
{
    std::map<std::string, const ScalingRow*> base_by_query;
    for (const ScalingRow& row : rows)
    {
        if (row.failed() || !(row.best_seconds > 0))
        {
            continue;
        }
        const ScalingRow*& base = base_by_query[row.query];
        if (base == nullptr || row.threads < base->threads)
        {
            base = &row;
        }
    }
    for (ScalingRow& row : rows)
    {
        const auto base = base_by_query.find(row.query);
        if (row.failed() || !(row.best_seconds > 0) || base == base_by_query.end())
        {
            row.speedup = 0;
            row.efficiency = 0;
            continue;
        }
        row.speedup = base->second->best_seconds * static_cast<double>(base->second->threads) /
                      row.best_seconds;
        row.efficiency = row.speedup / static_cast<double>(row.threads);
    }
}

}  // namespace granary::scale
