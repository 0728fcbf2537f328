#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>

#include "engine/planner/select_executor.h"
#include "engine/storage/async_insert_queue.h"

namespace granary
{

/// The per-query settings a client may send, by name (ClickHouse's names where ClickHouse has
/// the setting).
struct QuerySettings
{
    size_t max_threads = 0;       ///< 0: every hardware thread.
    size_t max_memory_usage = 0;  ///< Bytes; 0: unlimited.
    /// async_insert, wait_for_async_insert, async_insert_busy_timeout_ms and
    /// async_insert_max_data_size, as in ClickHouse (engine/ingest/insert_input.h).
    bool async_insert = false;
    bool wait_for_async_insert = true;
    AsyncInsertQueue::Limits async_insert_limits;
    /// input_format_binary_read_json_as_string: RowBinary JSON values come as a String of
    /// JSON text (Rotel's JSON-as-string mode), not in the binary JSON encoding.
    bool binary_json_as_string = false;
    /// Skip granules where an earlier query with the same WHERE found no row.
    bool use_query_condition_cache = true;
    /// Read compressed columns from decoded chunks kept across queries (ClickHouse's name;
    /// Granary caches every encoding's decoded values, within the database's bound).
    bool use_uncompressed_cache = true;
    SelectSettings select;
};

/// Applies `values` over `settings`; an unknown name or a malformed value is
/// Exception(kUnknownSetting / kBadArguments) naming it.
void applySettings(const std::map<std::string, std::string, std::less<>>& values,
                   QuerySettings& settings);

}  // namespace granary
