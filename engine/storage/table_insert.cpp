#include "engine/storage/table_insert.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <utility>

#include "engine/common/exception.h"
#include "engine/exec/executor.h"
#include "engine/storage/part_builder.h"
#include "engine/storage/part_files.h"
#include "engine/storage/storage_files.h"
#include "engine/storage/table.h"

namespace granary
{

/// Rows [begin, begin + count) of one block: a piece of a part to build.
struct TableInsert::PartSlice
{
    size_t block;
    size_t begin;
    size_t count;
};

TableInsert::TableInsert(Table& table) : table_(table), lock_(table.insert_mutex_) {}

TableInsert::~TableInsert()
{
    sorted_writer_.reset();
    if (!committed_)
    {
        try
        {
            awaitFinishingParts();
        }
        catch (...)
        {
            // Rolled back below: an uncommitted insert leaves nothing, whatever failed.
        }
        rollBack();
    }
}

void TableInsert::checkBlock(const Block& block) const
{
    const TableSchema& schema = table_.schema();
    if (block.columns.size() != schema.columns.size())
    {
        throw Exception(ErrorCode::kBadArguments, "table '" + table_.name() + "' has " +
                                                      std::to_string(schema.columns.size()) +
                                                      " columns, the block " +
                                                      std::to_string(block.columns.size()));
    }
    for (size_t index = 0; index < block.columns.size(); ++index)
    {
        const Block::Entry& entry = block.columns[index];
        const ColumnSchema& expected = schema.columns[index];
        if (entry.name != expected.name)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "block column " + std::to_string(index + 1) + " is '" + entry.name +
                                "', table '" + table_.name() + "' expects '" + expected.name + "'");
        }
        // A Nullable column takes values without NULLs; a NULL needs a Nullable column.
        const DataType held = entry.column.dataType();
        if (held.valueType().withoutNullable() != expected.type.valueType().withoutNullable() ||
            (entry.column.hasNulls() && !expected.type.nullable))
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "column '" + expected.name + "' is " + dataTypeName(expected.type) +
                                ", the block holds " + dataTypeName(entry.column.dataType()));
        }
        if (entry.column.size() != block.rows())
        {
            throw Exception(ErrorCode::kBadArguments, "column '" + expected.name + "' has " +
                                                          std::to_string(entry.column.size()) +
                                                          " rows, the block " +
                                                          std::to_string(block.rows()));
        }
    }
}

std::shared_ptr<const Part> buildTablePart(const Table& table,
                                           const std::vector<std::vector<ColumnView>>& pieces,
                                           const std::string& name, bool parallel)
{
    const SortedRows rows(pieces, table.schema(), parallel);
    if (!table.directory())
    {
        return makeInMemoryPart(buildPartData(rows, table.schema(), parallel));
    }
    const std::filesystem::path& directory = *table.directory();
    const std::filesystem::path temporary = directory / ("tmp_" + name);
    std::filesystem::create_directory(temporary);
    writePartFiles(rows, table.schema(), temporary, parallel);
    renameDurably(temporary, directory / name);
    return openPartFiles(directory / name, table.schema(), true);
}

namespace
{

/// Stored NULL rows hold their type's default, whatever the writer left there, so that equal
/// NULLs are equal values too (grouping, merges and checksums see one NULL).
void defaultNullValues(Block& block)
{
    for (Block::Entry& entry : block.columns)
    {
        if (entry.column.hasNulls())
        {
            entry.column.defaultNullValues();
        }
    }
}

}  // namespace

void TableInsert::add(std::vector<Block> blocks, size_t threads)
{
    std::vector<std::vector<PartSlice>> parts;
    for (size_t index = 0; index < blocks.size(); ++index)
    {
        checkBlock(blocks[index]);
        defaultNullValues(blocks[index]);
        const size_t rows = blocks[index].rows();
        // Equal slices of at most kMaxPartRows rows.
        const size_t count = (rows + Table::kMaxPartRows - 1) / Table::kMaxPartRows;
        for (size_t part = 0; part < count; ++part)
        {
            const size_t begin = rows * part / count;
            parts.push_back({{index, begin, rows * (part + 1) / count - begin}});
        }
    }
    buildParts(blocks, parts, threads);
}

void TableInsert::addPart(std::vector<Block> blocks, size_t threads)
{
    std::vector<PartSlice> pieces;
    size_t rows = 0;
    for (size_t index = 0; index < blocks.size(); ++index)
    {
        checkBlock(blocks[index]);
        defaultNullValues(blocks[index]);
        if (blocks[index].rows() > 0)
        {
            pieces.push_back({index, 0, blocks[index].rows()});
            rows += blocks[index].rows();
        }
    }
    if (rows > UINT32_MAX)
    {
        throw Exception(ErrorCode::kBadArguments, "a part of " + std::to_string(rows) +
                                                      " rows into '" + table_.name() +
                                                      "' exceeds 2^32 rows");
    }
    buildParts(blocks,
               pieces.empty() ? std::vector<std::vector<PartSlice>>{}
                              : std::vector<std::vector<PartSlice>>{pieces},
               threads);
}

void TableInsert::buildParts(const std::vector<Block>& blocks,
                             const std::vector<std::vector<PartSlice>>& parts, size_t threads)
{
    if (committed_)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "insert into '" + table_.name() + "' already committed");
    }
    const size_t first = parts_.size();
    for (size_t part = 0; part < parts.size(); ++part)
    {
        names_.push_back("part_" + std::to_string(table_.next_part_id_++));
    }
    parts_.resize(first + parts.size());
    auto build = [&](size_t part, bool parallel)
    {
        std::vector<std::vector<ColumnView>> pieces;
        for (const PartSlice& slice : parts[part])
        {
            pieces.emplace_back();
            for (const Block::Entry& entry : blocks[slice.block].columns)
            {
                pieces.back().push_back(entry.column.view().slice(slice.begin, slice.count));
            }
        }
        parts_[first + part] = buildTablePart(table_, pieces, names_[first + part], parallel);
    };
    if (threads <= 1)
    {
        // No oneTBB at all: a writer in a forked process (tests) must not need its threads.
        for (size_t part = 0; part < parts.size(); ++part)
        {
            build(part, false);
        }
    }
    else
    {
        tbb::task_arena arena(static_cast<int>(threads));
        arena.execute(
            [&]
            { Executor::forEachNested(parts.size(), [&](size_t part) { build(part, true); }); });
    }
    for (const std::vector<PartSlice>& part : parts)
    {
        for (const PartSlice& slice : part)
        {
            rows_ += slice.count;
        }
    }
}

void TableInsert::beginSortedPart()
{
    if (committed_ || sorted_open_)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "insert into '" + table_.name() + "' cannot begin a sorted part now");
    }
    sorted_open_ = true;
    if (table_.directory())
    {
        sorted_name_ = "part_" + std::to_string(table_.next_part_id_++);
        const std::filesystem::path temporary = *table_.directory() / ("tmp_" + sorted_name_);
        std::filesystem::create_directory(temporary);
        sorted_writer_ = std::make_unique<SortedPartWriter>(table_.schema(), temporary);
    }
}

void TableInsert::appendSorted(const Block& block, size_t threads)
{
    if (!sorted_open_)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "insert into '" + table_.name() + "' has no sorted part begun");
    }
    checkBlock(block);
    if (!sorted_writer_)
    {
        sorted_blocks_.push_back(block);
        return;
    }
    std::vector<ColumnView> columns;
    for (const Block::Entry& entry : block.columns)
    {
        columns.push_back(entry.column.view());
    }
    if (threads <= 1)
    {
        sorted_writer_->append(columns, false);
        return;
    }
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] { sorted_writer_->append(columns, true); });
}

void TableInsert::finishSortedPart(size_t threads)
{
    if (!sorted_open_)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "insert into '" + table_.name() + "' has no sorted part begun");
    }
    sorted_open_ = false;
    if (!sorted_writer_)
    {
        // In memory the part is built from the blocks, which are found in order.
        addPart(std::exchange(sorted_blocks_, {}), threads);
        return;
    }
    const std::filesystem::path& directory = *table_.directory();
    const std::string name = std::exchange(sorted_name_, {});
    const std::filesystem::path temporary = directory / ("tmp_" + name);
    const size_t rows = sorted_writer_->rows();
    if (rows == 0)
    {
        sorted_writer_.reset();
        std::filesystem::remove_all(temporary);
        return;
    }
    names_.push_back(name);
    parts_.push_back(nullptr);
    rows_ += rows;
    finishing_.emplace_back(parts_.size() - 1,
                            std::async(std::launch::async,
                                       [writer = std::move(sorted_writer_), temporary,
                                        published = directory / name, &schema = table_.schema()]
                                       {
                                           writer->finish();
                                           renameDurably(temporary, published);
                                           return openPartFiles(published, schema, true);
                                       }));
}

void TableInsert::awaitFinishingParts()
{
    std::exception_ptr first_error;
    for (auto& [index, part] : std::exchange(finishing_, {}))
    {
        try
        {
            parts_[index] = part.get();
        }
        catch (...)
        {
            if (!first_error)
            {
                first_error = std::current_exception();
            }
        }
    }
    if (first_error)
    {
        std::rethrow_exception(first_error);
    }
}

void TableInsert::commit()
{
    if (committed_)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "insert into '" + table_.name() + "' already committed");
    }
    if (sorted_open_)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "insert into '" + table_.name() + "' has a sorted part not finished");
    }
    awaitFinishingParts();
    table_.publish(parts_, names_);
    committed_ = true;
}

void TableInsert::rollBack() noexcept
{
    if (!table_.directory())
    {
        return;
    }
    std::vector<std::string> names = names_;
    if (!sorted_name_.empty())
    {
        names.push_back(sorted_name_);
    }
    for (const std::string& name : names)
    {
        std::error_code ignored;
        std::filesystem::remove_all(*table_.directory() / ("tmp_" + name), ignored);
        std::filesystem::remove_all(*table_.directory() / name, ignored);
    }
}

}  // namespace granary
