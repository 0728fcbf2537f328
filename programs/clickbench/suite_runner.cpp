#include "programs/clickbench/suite_runner.h"

#include <algorithm>
#include <exception>

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

std::vector<QueryRun> runSuite(QueryEngine& engine, const std::vector<std::string>& queries,
                               size_t runs, bool keep_results, const ProgressCallback& progress)
{
    std::vector<QueryRun> results;
    results.reserve(queries.size());
    for (size_t query = 0; query < queries.size(); ++query)
    {
        QueryRun& result = results.emplace_back();
        result.sql = queries[query];
        result.seconds.assign(runs, std::nullopt);
        for (size_t run = 0; run < runs; ++run)
        {
            if (progress)
            {
                progress(query, run);
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
    }
    return results;
}

}  // namespace granary::clickbench
