#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "programs/clickbench/process_memory.h"
#include "programs/clickbench/result_table.h"

namespace granary::clickbench
{

/// An engine the runner times: Granary through its Session, DuckDB through its C API.
class QueryEngine
{
public:
    virtual ~QueryEngine() = default;
    virtual std::string name() const = 0;
    /// Throws on failure; the runner records the message and goes on.
    virtual TimedResult run(std::string_view sql) = 0;
    /// Forgets cached query state before a query's first (cold) run.
    virtual void dropCaches() = 0;
};

struct QueryRun
{
    std::string sql;
    /// One entry per run; nullopt for a failed run (and the runs after it, not attempted).
    std::vector<std::optional<double>> seconds;
    /// Per run, the bytes the process read from storage meanwhile (storageReadBytes); empty
    /// where that cannot be measured.
    std::vector<uint64_t> storage_read_bytes;
    size_t rows = 0;
    std::string error;                  ///< Empty when every run succeeded.
    std::optional<ResultTable> result;  ///< The last run's rows, when the runner keeps them.

    std::optional<double> bestSeconds() const;
};

struct SuiteRun
{
    std::string engine;
    std::vector<QueryRun> queries;
    double load_seconds = 0;
    PhaseMemory memory;
};

/// Called before each run: query index (from 0), run index (from 0).
using ProgressCallback = std::function<void(size_t query, size_t run)>;

/// Runs each query `runs` times, the first after engine.dropCaches(). A failed run ends that
/// query's runs (its error is kept) and the suite goes on with the next query.
std::vector<QueryRun> runSuite(QueryEngine& engine, const std::vector<std::string>& queries,
                               size_t runs, bool keep_results, const ProgressCallback& progress);

/// The same on several engines, query by query and run by run: each query's run r on every
/// engine (in order for even r, in reverse for odd r) before its run r + 1, and all its runs
/// before the next query, so that a shared machine's drift reaches all engines alike and none
/// always follows another. `queries[e]` is engine e's text of the suite (its SQL dialect), all
/// of one length. One result per engine; `progress` per engine (missing: none).
std::vector<std::vector<QueryRun>> runSuites(const std::vector<QueryEngine*>& engines,
                                             const std::vector<std::vector<std::string>>& queries,
                                             size_t runs, bool keep_results,
                                             const std::vector<ProgressCallback>& progress);

}  // namespace granary::clickbench
