#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/observe/profile_event.h"

namespace granary::server
{

/// One query as the server received it.
struct QueryRequest
{
    std::string query_id;
    std::string sql;
    std::string user;
    std::string database;
    /// Settings the client sent that the server does not consume itself; an unknown name is
    /// the handler's Exception(kUnknownSetting or kBadArguments).
    std::map<std::string, std::string, std::less<>> settings;
    size_t threads = 0;  ///< 0: the handler's default.
    /// The data of `INSERT ... FORMAT name` when it came with the query (an HTTP body).
    std::optional<std::string_view> insert_data;
    /// ingest::kInputPaddingBytes readable bytes follow insert_data.
    bool insert_data_padded = false;
    /// The rows of an INSERT the native protocol sent as Data blocks (insertHeader's columns).
    std::optional<std::vector<Block>> insert_blocks;
};

/// Cumulative counters of a running query (the server sends the increments).
struct ProgressCounters
{
    size_t rows_read = 0;
    size_t bytes_read = 0;
    size_t total_rows_to_read = 0;
    size_t rows_written = 0;
    size_t bytes_written = 0;
};

/// What a running query reports as it goes; both may be called from any one thread at a time.
struct QueryCallbacks
{
    std::function<void(const ProgressCounters&)> on_progress;
    /// A result block (named, typed columns); every block has the same columns.
    std::function<void(Block)> on_block;
};

/// ProfileEvents of one thread of the query, sent to clients that support them.
struct ThreadProfileEvents
{
    uint64_t thread_id = 0;
    ProfileEventCounts counts;
};

struct QueryOutcome
{
    /// The result's columns with zero rows: sent as the header when no block was produced.
    Block header;
    std::optional<Block> totals;
    std::optional<Block> extremes;
    ProgressCounters progress;  ///< Final cumulative counters.
    std::vector<ThreadProfileEvents> profile_events;
};

/// Runs SQL for the server. Implementations throw granary::Exception on errors; once
/// `cancel` is true they should stop soon (throwing kQueryCancelled or returning).
class QueryHandler
{
public:
    virtual ~QueryHandler() = default;
    virtual QueryOutcome run(const QueryRequest& request, const QueryCallbacks& callbacks,
                             const std::atomic<bool>& cancel) = 0;
    /// For an INSERT whose rows the client sends as blocks (INSERT ... VALUES or FORMAT with
    /// no data): the columns it must send, named and typed, with no rows. nullopt for any
    /// other query (the default: a handler that takes no such inserts). Throws as run() does
    /// (unknown table or column).
    virtual std::optional<Block> insertHeader(const QueryRequest& /*request*/)
    {
        return std::nullopt;
    }
};

}  // namespace granary::server
