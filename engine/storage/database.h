#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/storage/async_insert_queue.h"
#include "engine/storage/decoded_chunk_cache.h"
#include "engine/storage/part_merge.h"
#include "engine/storage/table.h"

namespace granary
{

/// What createTable does when a table of that name exists.
enum class ExistingTable
{
    kFail,     ///< kTableAlreadyExists naming it.
    kKeep,     ///< Nothing (IF NOT EXISTS).
    kReplace,  ///< The new, empty table takes its place (OR REPLACE).
};

/// The catalog of tables. On disk, one folder per table under the database folder, named by
/// the table name with bytes other than [A-Za-z0-9_-] written as %XX; `tmp.*` entries are
/// unfinished creations and drops, deleted on open.
class Database
{
public:
    /// Opens the database in `dir`, creating the folder if missing. Throws kCorruptedData
    /// naming the file when a table's files are damaged.
    static std::shared_ptr<Database> open(const std::filesystem::path& dir);
    /// The same behaviour with nothing on disk.
    static std::shared_ptr<Database> openInMemory();

    /// Creates table `name` of `schema` (which must pass TableSchema::validate).
    void createTable(const std::string& name, TableSchema schema,
                     ExistingTable existing = ExistingTable::kFail);
    /// kUnknownTable naming it unless `if_exists`.
    void dropTable(std::string_view name, bool if_exists);
    /// kUnknownTable naming it.
    std::shared_ptr<Table> table(std::string_view name) const;
    /// Sorted.
    std::vector<std::string> tableNames() const;

    /// Appends the blocks (columns in schema order, names and types as the schema) as new
    /// parts, all or nothing: readers see all of them or none, a failure leaves the table as
    /// it was.
    void insert(std::string_view table, std::vector<Block> blocks, size_t threads = 1);
    /// The same, all rows in one part (at most 2^32): an async_insert batch.
    void insertOnePart(std::string_view table, std::vector<Block> blocks);

    const std::optional<std::filesystem::path>& directory() const { return directory_; }

    /// Merges small parts in a background thread from now on (part_merge.h), until the
    /// database is destroyed. Servers start it; a library host decides for itself.
    void startBackgroundMerges(MergePolicy policy = {});
    /// Merges done by the background thread so far (0 without one).
    uint64_t backgroundMerges() const;
    /// The queue of async_insert=1 inserts, started on first use.
    AsyncInsertQueue& asyncInserts();
    /// Decoded chunks of the tables' compressed columns, shared by every query that sets
    /// use_uncompressed_cache (DecodedChunkCache::defaultMaxBytes() until set otherwise).
    DecodedChunkCache& decodedCache() { return decoded_cache_; }

private:
    explicit Database(std::optional<std::filesystem::path> directory);

    std::optional<std::filesystem::path> directory_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Table>, std::less<>> tables_;
    /// Last: stopped before the tables go, the queued inserts written first.
    std::unique_ptr<BackgroundMerges> merges_;
    std::mutex async_inserts_mutex_;
    std::unique_ptr<AsyncInsertQueue> async_inserts_;
    DecodedChunkCache decoded_cache_{DecodedChunkCache::defaultMaxBytes()};
};

}  // namespace granary
