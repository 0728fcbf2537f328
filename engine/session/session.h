#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/exec/query_condition_cache.h"
#include "engine/exec/query_stats.h"

namespace granary
{

class Database;
class QueryProfiler;
struct QuerySettings;
struct SelectOutcome;
namespace sql
{
struct SelectStatement;
}

/// How far a query has read: what the native protocol's Progress packet and the progress bar
/// of `granary local` show.
struct QueryProgress
{
    size_t rows_read = 0;
    size_t bytes_read = 0;
    size_t total_rows_to_read = 0;  ///< Known once the query is planned; 0 before.
};

struct QueryOptions
{
    size_t threads = 0;             ///< 0: every hardware thread.
    size_t memory_limit_bytes = 0;  ///< 0: unlimited.
    /// Per-query settings by name (as in the native protocol's Query packet or SETTINGS);
    /// an unknown name is an Exception(kBadArguments), not ignored.
    std::map<std::string, std::string, std::less<>> settings;
    /// Called from the query's threads, serialised, at most every few milliseconds.
    std::function<void(const QueryProgress&)> on_progress;
    /// Polled while the query runs: once true, the query stops with kQueryCancelled.
    const std::atomic<bool>* cancel = nullptr;
    /// The data of `INSERT INTO t FORMAT TSV` (no FROM INFILE); null: such an INSERT fails.
    std::istream* insert_data = nullptr;
    /// The same data already in memory (an HTTP body); used in place of insert_data.
    std::optional<std::string_view> insert_bytes;
    /// 64 readable bytes follow insert_bytes (ingest::kInputPaddingBytes): parsed in place.
    bool insert_bytes_padded = false;
    /// The same rows as blocks (native protocol), columns by name; used before both.
    std::vector<Block>* insert_blocks = nullptr;
    /// Samples the stacks of the query's threads (engine/observe/query_profiler.h).
    QueryProfiler* profiler = nullptr;
};

struct QueryResult
{
    Block block;  ///< Named, typed result columns; empty for statements that return nothing.
    /// WITH TOTALS: one row with the block's columns, keys at their type's default (NULL where
    /// Nullable) and each aggregate over every group HAVING kept, whatever the LIMIT.
    std::optional<Block> totals;
    QueryStats stats;
    size_t rows_read = 0;     ///< Rows scanned (after granule skipping).
    size_t bytes_read = 0;    ///< Bytes of the columns scanned.
    size_t rows_written = 0;  ///< INSERT: rows loaded.
    double elapsed_seconds = 0;
};

/// A connection to one data directory: parses, plans and runs SQL statements. One Session may
/// run one statement at a time; sessions over the same Database may run concurrently.
class Session
{
public:
    explicit Session(std::shared_ptr<Database> database);
    ~Session();

    /// Opens (creating it if missing) the data directory `data_dir`.
    static std::shared_ptr<Database> openDatabase(const std::filesystem::path& data_dir);

    /// Throws granary::Exception (syntax errors with line and column, unknown names, type
    /// errors, cancellation) or MemoryLimitExceeded. Statistics are in the result.
    QueryResult execute(std::string_view sql, const QueryOptions& options = {});

    /// Forgets cached query state (the query condition cache and the database's decoded
    /// chunks), for cold runs.
    void dropCaches();

    Database& database() { return *database_; }

    /// Bytes the query condition cache may hold per session.
    static constexpr size_t kConditionCacheBytes = 64 << 20;

private:
    /// A SELECT (on its own or under INSERT ... SELECT) on the session's database; its
    /// statistics to `stats`, the statement's wall time counted from `start_ns`
    /// (wallNanoseconds when it was received).
    SelectOutcome runQuery(const sql::SelectStatement& select, const QuerySettings& settings,
                           const QueryOptions& options, size_t threads, int64_t start_ns,
                           QueryStats& stats);

    std::shared_ptr<Database> database_;
    std::unique_ptr<QueryConditionCache> condition_cache_;
};

}  // namespace granary
