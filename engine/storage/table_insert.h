#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/storage/part.h"

namespace granary
{

class Table;

/// One all-or-nothing insert into a table: add() turns blocks into parts (sorted, split, and
/// for a table on disk written and synced in their own folders) that no reader sees;
/// commit() publishes all of them at once. Destroyed uncommitted, it deletes what it wrote.
/// Inserts into one table are serialised: the constructor waits for the previous one.
class TableInsert
{
public:
    explicit TableInsert(Table& table);
    TableInsert(const TableInsert&) = delete;
    TableInsert& operator=(const TableInsert&) = delete;
    ~TableInsert();

    /// Blocks hold the table's columns in schema order, with its names and types; throws
    /// kBadArguments or kTypeMismatch naming the column otherwise. `threads` parallelises
    /// sorting and writing.
    void add(std::vector<Block> blocks, size_t threads = 1);
    /// Same checks; all rows of the blocks, in order, become one part (at most 2^32 rows).
    void addPart(std::vector<Block> blocks, size_t threads = 1);
    size_t rows() const { return rows_; }
    void commit();

private:
    struct PartSlice;

    void checkBlock(const Block& block) const;
    std::shared_ptr<const Part> buildPart(const std::vector<std::vector<ColumnView>>& pieces,
                                          const std::string& name, bool parallel) const;
    /// parts[i] lists the block slices that form new part i.
    void buildParts(const std::vector<Block>& blocks,
                    const std::vector<std::vector<PartSlice>>& parts, size_t threads);
    void rollBack() noexcept;

    Table& table_;
    std::unique_lock<std::mutex> lock_;
    std::vector<std::shared_ptr<const Part>> parts_;
    std::vector<std::string> names_;
    size_t rows_ = 0;
    bool committed_ = false;
};

}  // namespace granary
