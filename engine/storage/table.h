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
};

}  // namespace granary
