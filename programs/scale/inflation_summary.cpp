#include "programs/scale/inflation_summary.h"

#include <fmt/format.h>

#include <algorithm>

#include "programs/scale/csv_record.h"
#include "programs/scale/geometric_mean.h"

namespace granary::scale
{

namespace
{

bool isBigQuery(const InflationRow& row)
{
    return row.one_thread_ms && *row.one_thread_ms >= kBigQueryMs;
}

std::vector<size_t> threadCountsOf(const std::vector<InflationRow>& rows)
{
    std::vector<size_t> threads;
    for (const InflationRow& row : rows)
    {
        threads.push_back(row.threads);
    }
    std::sort(threads.begin(), threads.end());
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    return threads;
}

InflationSummaryRow summariseAt(const InflationSuite& suite, size_t threads)
{
    InflationSummaryRow summary;
    summary.suite = suite.name;
    summary.threads = threads;
    GeometricMean mean;
    for (const InflationRow& row : suite.rows)
    {
        if (row.threads != threads || !hasInflation(row))
        {
            continue;
        }
        const double inflation = *row.inflation;
        ++summary.queries;
        mean.add(inflation);
        if (inflation > summary.max_inflation)
        {
            summary.max_inflation = inflation;
            summary.max_query = row.query;
        }
        if (isBigQuery(row))
        {
            ++summary.big_queries;
            if (inflation > kQueryInflationTarget)
            {
                summary.big_over_target.push_back(row.query);
            }
        }
    }
    summary.geometric_mean = mean.value();
    return summary;
}

/// A ratio for the table and the CSV, or nothing where no query had one.
std::string ratio(const InflationSummaryRow& row, double value)
{
    return row.queries > 0 ? fmt::format("{:.4f}", value) : "";
}

/// Whether the suite meets the targets at its largest thread count (the last summary row).
std::string verdictLine(const InflationSummaryRow& row)
{
    if (row.queries == 0)
    {
        return fmt::format("{} at {} threads: no inflation measured\n", row.suite, row.threads);
    }
    return fmt::format(
        "{} at {} threads: geometric mean {:.3f}x ({} {}x), {} of {} queries >= {} ms above "
        "{}x{}\n",
        row.suite, row.threads, row.geometric_mean,
        row.geometric_mean <= kMeanInflationTarget ? "meets" : "MISSES", kMeanInflationTarget,
        row.big_over_target.size(), row.big_queries, kBigQueryMs, kQueryInflationTarget,
        row.big_over_target.empty() ? ""
                                    : fmt::format(": {}", fmt::join(row.big_over_target, " ")));
}

}  // namespace

std::vector<InflationSummaryRow> summariseInflation(const std::vector<InflationRow>& rows)
{
    std::vector<InflationSummaryRow> summary;
    for (const InflationSuite& suite : splitBySuite(rows))
    {
        for (const size_t threads : threadCountsOf(suite.rows))
        {
            summary.push_back(summariseAt(suite, threads));
        }
    }
    return summary;
}

std::string inflationSummaryCsv(const std::vector<InflationSummaryRow>& summary)
{
    std::string csv =
        "suite,threads,queries,geometric_mean,max_inflation,max_query,big_queries,"
        "big_over_target,big_over_target_queries\n";
    for (const InflationSummaryRow& row : summary)
    {
        csv +=
            fmt::format("{},{},{},{},{},{},{},{},{}\n", quoteCsvField(row.suite), row.threads,
                        row.queries, ratio(row, row.geometric_mean), ratio(row, row.max_inflation),
                        quoteCsvField(row.max_query), row.big_queries, row.big_over_target.size(),
                        fmt::format("{}", fmt::join(row.big_over_target, " ")));
    }
    return csv;
}

std::string inflationSummaryTable(const std::vector<InflationSummaryRow>& summary)
{
    size_t suite_width = 5;
    for (const InflationSummaryRow& row : summary)
    {
        suite_width = std::max(suite_width, row.suite.size());
    }
    const std::string big = fmt::format(">={}ms", kBigQueryMs);
    const std::string over = fmt::format(">{}x", kQueryInflationTarget);
    std::string table =
        fmt::format("{:<{}}  {:>7}  {:>7}  {:>8}  {:>8}  {:<6}  {:>7}  {:>7}\n", "suite",
                    suite_width, "threads", "queries", "geo.mean", "max", "worst", big, over);
    for (const InflationSummaryRow& row : summary)
    {
        table += fmt::format("{:<{}}  {:>7}  {:>7}  {:>8}  {:>8}  {:<6}  {:>7}  {:>7}\n", row.suite,
                             suite_width, row.threads, row.queries, ratio(row, row.geometric_mean),
                             ratio(row, row.max_inflation), row.max_query, row.big_queries,
                             row.big_over_target.size());
    }
    for (size_t i = 0; i < summary.size(); ++i)
    {
        const bool last_of_suite =
            i + 1 == summary.size() || summary[i + 1].suite != summary[i].suite;
        if (last_of_suite)
        {
            table += verdictLine(summary[i]);
        }
    }
    return table;
}

}  // namespace granary::scale
