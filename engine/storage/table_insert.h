#pragma once

#include <cstddef>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/storage/part.h"

namespace granary
{

class Table;
class SortedPartWriter;

/// Sorts `pieces` (views of the table's columns, piece after piece) into one part named `name`:
/// for a table on disk written, synced and renamed into its folder (what insert and merge
/// share); in memory kept as columns.
std::shared_ptr<const Part> buildTablePart(const Table& table,
                                           const std::vector<std::vector<ColumnView>>& pieces,
                                           const std::string& name, bool parallel);

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
    /// A part whose rows come already in key order, block after block: each block is checked
    /// as in add() and, for a table on disk, written at once, so that the caller need not hold
    /// the whole part (gen-hits). Every block but the last must hold whole granules
    /// (Part::kGranuleRows rows); rows out of key order are kBadArguments. On disk,
    /// finishSortedPart() leaves the part's fsyncs and rename to a thread of its own, so that
    /// the caller can go on with the next part while the disk works; commit() waits for them
    /// and throws their first error. On disk the block is not kept, so the caller may reuse
    /// its buffers; in memory it is copied.
    void beginSortedPart();
    void appendSorted(const Block& block, size_t threads = 1);
    void finishSortedPart(size_t threads = 1);
    size_t rows() const { return rows_; }
    void commit();

private:
    struct PartSlice;

    void checkBlock(const Block& block) const;
    /// parts[i] lists the block slices that form new part i.
    void buildParts(const std::vector<Block>& blocks,
                    const std::vector<std::vector<PartSlice>>& parts, size_t threads);
    /// Waits for every sorted part still being made durable, fills its slot in parts_, and
    /// then throws the first error any of them raised.
    void awaitFinishingParts();
    void rollBack() noexcept;

    Table& table_;
    std::unique_lock<std::mutex> lock_;
    /// The sorted part being appended: on disk, its name and writer; in memory, its blocks.
    bool sorted_open_ = false;
    std::string sorted_name_;
    std::unique_ptr<SortedPartWriter> sorted_writer_;
    std::vector<Block> sorted_blocks_;
    std::vector<std::shared_ptr<const Part>> parts_;
    std::vector<std::string> names_;
    /// Sorted parts being made durable: their index in parts_ (null until then), and the part.
    std::vector<std::pair<size_t, std::future<std::shared_ptr<const Part>>>> finishing_;
    size_t rows_ = 0;
    bool committed_ = false;
};

}  // namespace granary
