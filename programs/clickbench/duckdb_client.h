#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "programs/clickbench/duckdb_api.h"
#include "programs/clickbench/result_table.h"

namespace granary::clickbench
{

/// One DuckDB database, in memory or in a file, and a connection to it, through the
/// dlopen'd C API. DuckDB's errors become Exception(kBadArguments) carrying DuckDB's message.
class DuckDbClient
{
public:
    /// `database_file` empty: an in-memory database; else that file, created when missing.
    explicit DuckDbClient(DuckDbApi api, const std::filesystem::path& database_file = {});
    ~DuckDbClient();
    DuckDbClient(const DuckDbClient&) = delete;
    DuckDbClient& operator=(const DuckDbClient&) = delete;

    std::string version() const { return api_.library_version(); }

    /// Runs `sql`; the time covers DuckDB producing the whole (materialised) result.
    TimedResult query(std::string_view sql);
    /// Runs a statement whose result is not needed (SET, CREATE...).
    void execute(std::string_view sql);

    /// CREATE TABLE `table` with the names of `block`'s columns and the DuckDB types of theirs
    /// (UInt16 → USMALLINT, Date → DATE, DateTime → TIMESTAMP, String → VARCHAR...).
    void createTable(std::string_view table, const BlockView& block);
    /// The same from column names and types: Array(T) → T[], Map(K, V) → MAP(K, V),
    /// DateTime64(P) → TIMESTAMP_NS (values scaled to nanoseconds).
    void createTable(std::string_view table,
                     const std::vector<std::pair<std::string, DataType>>& columns);
    /// Appends the blocks' rows to `table` (created by createTable from the same columns)
    /// through one DuckDB appender, one vector of rows per data chunk. Values are moved as
    /// numbers, never as text, so ClickHouse's zero date (1970-01-01) loads as itself.
    void append(std::string_view table, const std::vector<BlockView>& blocks);
    /// The same for blocks made one at a time: `write_blocks` is called once with a function
    /// that appends a block (valid only during the call), so that the caller can reuse its
    /// buffers between blocks and still commit once.
    void append(
        std::string_view table,
        const std::function<void(const std::function<void(const BlockView&)>&)>& write_blocks);

private:
    DuckDbApi api_;
    DuckDbApi::Handle database_ = nullptr;
    DuckDbApi::Handle connection_ = nullptr;
};

/// DuckDB's name for a Granary type ("USMALLINT", "TIMESTAMP", "VARCHAR"...).
std::string_view duckDbTypeName(TypeId type);
/// The same for a full type, nested ones included ("VARCHAR[]", "MAP(VARCHAR, VARCHAR)").
std::string duckDbTypeName(const DataType& type);

}  // namespace granary::clickbench
