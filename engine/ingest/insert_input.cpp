#include "engine/ingest/insert_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/ingest/json_each_row_reader.h"
#include "engine/ingest/row_binary_reader.h"
#include "engine/ingest/values_rows.h"
#include "engine/storage/database.h"
#include "engine/storage/text_loader.h"

namespace granary::ingest
{
namespace
{

enum class InputFormat
{
    kText,
    kRowBinary,
    kRowBinaryWithNamesAndTypes,
    kJsonEachRow,
};

InputFormat inputFormatFromName(std::string_view name)
{
    if (equalsIgnoringCase(name, "RowBinary"))
    {
        return InputFormat::kRowBinary;
    }
    if (equalsIgnoringCase(name, "RowBinaryWithNamesAndTypes"))
    {
        return InputFormat::kRowBinaryWithNamesAndTypes;
    }
    if (equalsIgnoringCase(name, "JSONEachRow"))
    {
        return InputFormat::kJsonEachRow;
    }
    try
    {
        textFormatFromName(name);
    }
    catch (const Exception&)
    {
        throw Exception(ErrorCode::kUnknownFormat,
                        fmt::format("Unknown input format '{}' (TSV, CSV, TSVWithNames, "
                                    "CSVWithNames, RowBinary, RowBinaryWithNamesAndTypes, "
                                    "JSONEachRow)",
                                    name));
    }
    return InputFormat::kText;
}

/// A read-only istream over bytes in memory, so that the text loader reads them in place.
class MemoryStreamBuffer : public std::streambuf
{
public:
    explicit MemoryStreamBuffer(std::string_view bytes)
    {
        char* begin = const_cast<char*>(bytes.data());
        setg(begin, begin, begin + bytes.size());
    }
};

std::string readAll(std::istream& stream)
{
    return std::string(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
}

std::string readFile(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
    {
        throw Exception(ErrorCode::kCannotOpenFile, fmt::format("Cannot open {}", path));
    }
    return readAll(file);
}

/// Inserts the blocks as one all-or-nothing insert, or queues them into their table's async
/// batch (none when they hold no rows); returns their rows.
size_t insertRows(Database& database, std::string_view table, std::vector<Block> blocks,
                  size_t threads, const AsyncInsert& async)
{
    size_t rows = 0;
    size_t bytes = 0;
    for (const Block& block : blocks)
    {
        rows += block.rows();
        for (const Block::Entry& entry : block.columns)
        {
            bytes += valueBytes(entry.column.view());
        }
    }
    if (rows == 0)
    {
        return 0;
    }
    if (!async.enabled)
    {
        database.insert(table, std::move(blocks), threads);
        return rows;
    }
    const std::shared_future<void> done =
        database.asyncInserts().add(std::string(table), std::move(blocks), bytes, async.limits);
    if (async.wait)
    {
        done.get();  // Rethrows what failed the batch.
    }
    return rows;
}

size_t insertBinaryOrJson(Database& database, const sql::InsertStatement& insert,
                          InputFormat format, std::string_view data, const InsertSource& source,
                          size_t threads)
{
    const std::shared_ptr<Table> table = database.table(insert.table);
    const TableSchema& schema = table->schema();
    std::vector<Block> blocks;
    if (format == InputFormat::kJsonEachRow)
    {
        blocks = readJsonEachRow(schema, schema.fieldColumns(insert.columns), data,
                                 source.bytes_padded && !insert.infile);
    }
    else
    {
        BinaryCursor cursor(data);
        const RowBinaryReader reader =
            format == InputFormat::kRowBinary
                ? RowBinaryReader(schema, schema.fieldColumns(insert.columns), source.limits,
                                  source.binary_json_as_string)
                : RowBinaryReader::fromHeader(schema, cursor, source.limits,
                                              source.binary_json_as_string);
        blocks = reader.readAll(cursor);
    }
    return insertRows(database, insert.table, std::move(blocks), threads, source.async);
}

/// A block of every schema column from one holding the listed columns (by name, type
/// checked), defaults elsewhere.
Block completeBlock(const TableSchema& schema, const std::vector<size_t>& field_columns,
                    Block& given)
{
    Block block = schema.emptyBlock();
    const size_t rows = given.rows();
    for (size_t index = 0; index < schema.columns.size(); ++index)
    {
        Column& column = block.columns[index].column;
        const bool listed =
            std::find(field_columns.begin(), field_columns.end(), index) != field_columns.end();
        Block::Entry* entry = nullptr;
        for (Block::Entry& candidate : given.columns)
        {
            if (candidate.name == schema.columns[index].name)
            {
                entry = &candidate;
            }
        }
        if (listed && entry == nullptr)
        {
            throw Exception(
                ErrorCode::kNoSuchColumnInTable,
                fmt::format("INSERT block lacks column '{}'", schema.columns[index].name));
        }
        if (entry == nullptr)
        {
            column.appendMissing(rows);
            continue;
        }
        if (entry->column.dataType() != column.dataType() || entry->column.size() != rows)
        {
            throw Exception(
                ErrorCode::kTypeMismatch,
                fmt::format("INSERT block's column '{}' is {} of {} rows, the table "
                            "wants {} of {}",
                            entry->name, dataTypeName(entry->column.dataType()),
                            entry->column.size(), dataTypeName(column.dataType()), rows));
        }
        column = std::move(entry->column);
    }
    return block;
}

size_t insertBlocks(Database& database, const sql::InsertStatement& insert,
                    std::vector<Block>& given, const AsyncInsert& async, size_t threads)
{
    const std::shared_ptr<Table> table = database.table(insert.table);
    const TableSchema& schema = table->schema();
    const std::vector<size_t> field_columns = schema.fieldColumns(insert.columns);
    std::vector<Block> blocks;
    for (Block& block : given)
    {
        if (block.rows() > 0)
        {
            blocks.push_back(completeBlock(schema, field_columns, block));
        }
    }
    return insertRows(database, insert.table, std::move(blocks), threads, async);
}

}  // namespace

size_t executeInsert(Database& database, const sql::InsertStatement& insert,
                     const InsertSource& source, size_t threads)
{
    if (source.blocks && !insert.infile)
    {
        return insertBlocks(database, insert, *source.blocks, source.async, threads);
    }
    if (!insert.rows.empty())
    {
        const size_t columns =
            database.table(insert.table)->schema().fieldColumns(insert.columns).size();
        const std::string text = valuesAsTsv(insert, columns);
        sql::InsertStatement as_tsv = insert;
        as_tsv.rows.clear();
        as_tsv.format = "TSV";
        InsertSource in_memory;
        in_memory.bytes = text;
        try
        {
            return executeInsert(database, as_tsv, in_memory, threads);
        }
        catch (const Exception& error)
        {
            // The loader counts TSV lines: here each is a VALUES row.
            const std::string_view message = error.what();
            throw Exception(error.code(), message.starts_with("line ")
                                              ? "VALUES row " + std::string(message.substr(5))
                                              : std::string(message));
        }
    }
    const std::string format_name = insert.format.value_or("TSV");
    const InputFormat format = inputFormatFromName(format_name);
    if (format == InputFormat::kText)
    {
        LoadOptions load;
        load.format = textFormatFromName(format_name);
        load.columns = insert.columns;
        load.threads = threads;
        load.progress = source.progress;
        if (insert.infile)
        {
            return loadTextFile(database, insert.table, *insert.infile, load);
        }
        if (source.bytes)
        {
            MemoryStreamBuffer buffer(*source.bytes);
            std::istream stream(&buffer);
            return loadText(database, insert.table, stream, load);
        }
        if (source.stream)
        {
            return loadText(database, insert.table, *source.stream, load);
        }
    }
    else if (insert.infile || source.bytes || source.stream)
    {
        const std::string owned = insert.infile  ? readFile(*insert.infile)
                                  : source.bytes ? std::string()
                                                 : readAll(*source.stream);
        const std::string_view data = source.bytes && !insert.infile ? *source.bytes : owned;
        return insertBinaryOrJson(database, insert, format, data, source, threads);
    }
    throw Exception(ErrorCode::kBadArguments,
                    fmt::format("INSERT INTO {} without FROM INFILE needs data on standard input",
                                insert.table));
}

}  // namespace granary::ingest
