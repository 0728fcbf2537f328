#include "engine/storage/part_merge.h"

#include <filesystem>
#include <iostream>

#include "engine/common/exception.h"
#include "engine/storage/table_insert.h"

namespace granary
{
namespace
{

/// The first run of 2+ consecutive small parts, cut at max_merged_rows; empty when the table
/// has no more small parts than allowed.
std::vector<std::shared_ptr<const Part>> chooseSources(const TableSnapshot& snapshot,
                                                       const MergePolicy& policy)
{
    size_t small = 0;
    for (const std::shared_ptr<const Part>& part : snapshot.parts)
    {
        small += part->rows() < policy.small_part_rows ? 1 : 0;
    }
    std::vector<std::shared_ptr<const Part>> run;
    if (small <= policy.max_small_parts)
    {
        return run;
    }
    size_t rows = 0;
    for (const std::shared_ptr<const Part>& part : snapshot.parts)
    {
        const bool fits = part->rows() < policy.small_part_rows &&
                          rows + part->rows() <= policy.max_merged_rows;
        if (fits)
        {
            run.push_back(part);
            rows += part->rows();
            continue;
        }
        if (run.size() >= 2)
        {
            return run;
        }
        run.clear();
        rows = 0;
        if (part->rows() < policy.small_part_rows)
        {
            run.push_back(part);
            rows = part->rows();
        }
    }
    if (run.size() < 2)
    {
        run.clear();
    }
    return run;
}

}  // namespace

bool mergeSmallParts(Table& table, const MergePolicy& policy)
{
    const std::unique_lock merging = table.tryLockForMerge();
    if (!merging.owns_lock())
    {
        return false;
    }
    const std::vector<std::shared_ptr<const Part>> sources =
        chooseSources(*table.snapshot(), policy);
    if (sources.empty())
    {
        return false;
    }
    const TableSchema& schema = table.schema();
    // Every source column as a view: of the part's memory, or decoded into a buffer that the
    // views point into (reserved up front, so that no buffer moves).
    std::vector<Column> buffers;
    buffers.reserve(sources.size() * schema.columns.size());
    std::vector<std::vector<ColumnView>> pieces;
    for (const std::shared_ptr<const Part>& part : sources)
    {
        pieces.emplace_back();
        for (size_t column = 0; column < schema.columns.size(); ++column)
        {
            buffers.emplace_back(schema.columns[column].type);
            pieces.back().push_back(part->read(column, 0, part->rows(), buffers.back()));
        }
    }
    const std::string name = table.reservePartName();
    std::shared_ptr<const Part> merged = buildTablePart(table, pieces, name, false);
    if (table.replaceParts(sources, std::move(merged), name))
    {
        return true;
    }
    if (table.directory())
    {
        std::error_code ignored;
        std::filesystem::remove_all(*table.directory() / name, ignored);
    }
    return false;
}

BackgroundMerges::BackgroundMerges(TableList tables, MergePolicy policy)
    : tables_(std::move(tables)), policy_(policy), thread_([this] { run(); })
{
}

BackgroundMerges::~BackgroundMerges()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wakeup_.notify_one();
    thread_.join();
}

void BackgroundMerges::wake()
{
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    wakeup_.notify_one();
}

void BackgroundMerges::run()
{
    std::unique_lock lock(mutex_);
    while (!stopping_)
    {
        wakeup_.wait_for(lock, kPollInterval, [&] { return woken_ || stopping_; });
        woken_ = false;
        lock.unlock();
        for (const std::shared_ptr<Table>& table : tables_())
        {
            try
            {
                while (!stopping_ && mergeSmallParts(*table, policy_))
                {
                    ++merges_;
                }
            }
            catch (const std::exception& error)
            {
                // A table dropped or a disk full mid-merge: its sources stay published.
                std::cerr << "granary: merging parts of '" << table->name()
                          << "' failed: " << error.what() << "\n";
            }
        }
        lock.lock();
    }
}

}  // namespace granary
