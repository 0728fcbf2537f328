#include "programs/clickbench/suite_runner.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <stdexcept>

#include "programs/clickbench/process_io.h"

namespace granary::clickbench
{

std::optional<double> QueryRun::bestSeconds() const
{
    std::optional<double> best;
    for (const std::optional<double>& run : seconds)
    {
        if (run && (!best || *run < *best))
        {
            best = run;
        }
    }
    return best;
}

namespace
{

/// Run `run` of one query on one engine into `result`, the first after engine.dropCaches(); a
/// failure is kept as result.error.
void runOnce(QueryEngine& engine, QueryRun& result, size_t run, bool keep_results)
{
    const size_t runs = result.seconds.size();
    try
    {
        if (run == 0)
        {
            engine.dropCaches();
        }
        const std::optional<uint64_t> read_before = storageReadBytes();
        TimedResult timed = engine.run(result.sql);
        const std::optional<uint64_t> read_after = storageReadBytes();
        result.seconds[run] = timed.seconds;
        if (read_before && read_after)
        {
            result.storage_read_bytes.resize(runs);
            result.storage_read_bytes[run] = *read_after - *read_before;
        }
        result.rows = timed.table.rows.size();
        if (keep_results && run + 1 == runs)
        {
            result.result = std::move(timed.table);
        }
    }
    catch (const std::exception& error)
    {
        result.error = error.what();
    }
}

}  // namespace

std::vector<QueryRun> runSuite(QueryEngine& engine, const std::vector<std::string>& queries,
                               size_t runs, bool keep_results, const ProgressCallback& progress)
{
    return std::move(runSuites({&engine}, {queries}, runs, keep_results, {progress}).front());
}

std::vector<std::vector<QueryRun>> runSuites(const std::vector<QueryEngine*>& engines,
                                             const std::vector<std::vector<std::string>>& queries,
                                             size_t runs, bool keep_results,
                                             const std::vector<ProgressCallback>& progress)
{
    std::vector<std::vector<QueryRun>> results(engines.size());
    const size_t query_count = queries.empty() ? 0 : queries.front().size();
    if (queries.size() != engines.size() ||
        std::any_of(queries.begin(), queries.end(),
                    [&](const auto& suite) { return suite.size() != query_count; }))
    {
        throw std::invalid_argument("runSuites: one suite per engine, all of one length");
    }
    for (size_t query = 0; query < query_count; ++query)
    {
        for (size_t e = 0; e < engines.size(); ++e)
        {
            QueryRun& result = results[e].emplace_back();
            result.sql = queries[e][query];
            result.seconds.assign(runs, std::nullopt);
        }
        for (size_t run = 0; run < runs; ++run)
        {
            for (size_t turn = 0; turn < engines.size(); ++turn)
            {
                // Every other round in reverse order: no engine always runs right after the
                // other's run of the same query (whose freed memory and warm caches it would
                // inherit).
                const size_t e = run % 2 == 0 ? turn : engines.size() - 1 - turn;
                if (!results[e].back().error.empty())
                {
                    continue;  // A failed run ends the query's runs on that engine.
                }
                if (e < progress.size() && progress[e])
                {
                    progress[e](query, run);
                }
                runOnce(*engines[e], results[e].back(), run, keep_results);
            }
        }
    }
    return results;
}

}  // namespace granary::clickbench
