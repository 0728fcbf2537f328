#include "programs/clickbench/suite_runner.h"

#include <algorithm>
#include <exception>
#include <functional>

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

/// One query's runs on one engine: the first after engine.dropCaches(); a failed run ends
/// them.
QueryRun runQuery(QueryEngine& engine, const std::string& sql, size_t runs, bool keep_results,
                  const std::function<void(size_t run)>& progress)
{
    QueryRun result;
    result.sql = sql;
    result.seconds.assign(runs, std::nullopt);
    for (size_t run = 0; run < runs; ++run)
    {
        if (progress)
        {
            progress(run);
        }
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
            break;
        }
    }
    return result;
}

}  // namespace

std::vector<QueryRun> runSuite(QueryEngine& engine, const std::vector<std::string>& queries,
                               size_t runs, bool keep_results, const ProgressCallback& progress)
{
    return std::move(runSuites({&engine}, queries, runs, keep_results, {progress}).front());
}

std::vector<std::vector<QueryRun>> runSuites(const std::vector<QueryEngine*>& engines,
                                             const std::vector<std::string>& queries, size_t runs,
                                             bool keep_results,
                                             const std::vector<ProgressCallback>& progress)
{
    std::vector<std::vector<QueryRun>> results(engines.size());
    for (size_t query = 0; query < queries.size(); ++query)
    {
        for (size_t e = 0; e < engines.size(); ++e)
        {
            const ProgressCallback* report =
                e < progress.size() && progress[e] ? &progress[e] : nullptr;
            results[e].push_back(runQuery(*engines[e], queries[query], runs, keep_results,
                                          [&](size_t run)
                                          {
                                              if (report)
                                              {
                                                  (*report)(query, run);
                                              }
                                          }));
        }
    }
    return results;
}

}  // namespace granary::clickbench
