#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/storage/part.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// The parts a query reads: fixed when taken, whatever inserts publish afterwards.
struct TableSnapshot
{
    std::vector<std::shared_ptr<const Part>> parts;
    size_t rows() const;
};

class TableInsert;

/// A table: its schema and its published parts. On disk its folder holds `schema.json`,
/// `manifest.json` (the published parts: publishing is one atomic rename of that file) and one
/// `part_<n>` folder per part; `tmp_*` entries are unfinished writes.
class Table
{
public:
    /// Parts larger than this are split, so that queries can read parts in parallel.
    static constexpr size_t kMaxPartRows = size_t{1} << 20;

    /// An empty table kept in memory only.
    Table(std::string name, TableSchema schema);
    /// Writes an empty table's files into `directory` (which must not exist yet).
    static std::shared_ptr<Table> create(std::string name, TableSchema schema,
                                         const std::filesystem::path& directory);
    /// Opens a table folder: unfinished writes and unpublished parts are deleted first.
    /// Throws kCorruptedData naming the file at fault.
    static std::shared_ptr<Table> open(const std::filesystem::path& directory);

    const std::string& name() const { return name_; }
    const TableSchema& schema() const { return schema_; }
    std::shared_ptr<const TableSnapshot> snapshot() const;
    const std::optional<std::filesystem::path>& directory() const { return directory_; }

    /// Appends the blocks as new parts, all or nothing (see TableInsert).
    void insert(std::vector<Block> blocks, size_t threads = 1);

    /// A name no part has had, for a part about to be written (merges).
    std::string reservePartName();
    /// Publishes `merged` (named `name`, already durable) in place of `sources`, which must
    /// still be published one after the other, then deletes the sources' folders. Returns
    /// false, changing nothing, when they are not. Readers holding an older snapshot keep
    /// reading the sources (their files stay mapped).
    bool replaceParts(const std::vector<std::shared_ptr<const Part>>& sources,
                      std::shared_ptr<const Part> merged, const std::string& name);
    /// Held by a merge from start to publish; not owning the mutex when another merge runs
    /// or the table is retired.
    std::unique_lock<std::mutex> tryLockForMerge();
    /// Ends merges (waiting for one under way) before DROP or OR REPLACE removes the
    /// table's folder, where a new table may then be created.
    void retire();

private:
    friend class TableInsert;

    Table(std::string name, TableSchema schema, std::optional<std::filesystem::path> directory);

    /// Makes `parts` (named `names` on disk) visible after the current ones.
    void publish(const std::vector<std::shared_ptr<const Part>>& parts,
                 const std::vector<std::string>& names);

    std::string name_;
    TableSchema schema_;
    std::optional<std::filesystem::path> directory_;

    mutable std::mutex snapshot_mutex_;
    std::shared_ptr<const TableSnapshot> snapshot_;

    /// Held by the one TableInsert writing at a time; guards the two members below.
    std::mutex insert_mutex_;
    std::vector<std::string> part_names_;
    uint64_t next_part_id_ = 1;

    std::mutex merge_mutex_;
    bool retired_ = false;  ///< Guarded by merge_mutex_.
};

}  // namespace granary
