#include "server/native_block.h"

#include <fmt/format.h>

#include "engine/common/exception.h"

namespace granary::server
{
namespace
{

/// Block info fields: 1 is_overflows (UInt8), 2 bucket_num (Int32), 0 ends the list.
void writeBlockInfo(WriteBuffer& out)
{
    writeVarUInt(out, 1);
    writeFixed<uint8_t>(out, 0);
    writeVarUInt(out, 2);
    writeFixed<int32_t>(out, -1);
    writeVarUInt(out, 0);
}

void readBlockInfo(ReadBuffer& in)
{
    for (;;)
    {
        const uint64_t field = readVarUInt(in, "block info field number");
        if (field == 0)
        {
            return;
        }
        if (field == 1)
        {
            readFixed<uint8_t>(in, "block info is_overflows");
        }
        else if (field == 2)
        {
            readFixed<int32_t>(in, "block info bucket_num");
        }
        else
        {
            throw Exception(ErrorCode::kCannotParseInput,
                            fmt::format("Unknown block info field {}", field));
        }
    }
}

/// Native layout: fixed-width values as they are, strings each with its length, an Array or
/// Map as its rows' end offsets (UInt64, from 0 at the block's start) and then its children's
/// values, all rows at once (Map as Array(Tuple(K, V)): the keys, then the values).
void writeValues(WriteBuffer& out, const ColumnView& view)
{
    if (isString(view.type))
    {
        for (size_t row = 0; row < view.rows; ++row)
        {
            writeString(out, view.stringAt(row));
        }
        return;
    }
    if (isNested(view.type))
    {
        const uint64_t first = view.offsets[0];
        for (size_t row = 0; row < view.rows; ++row)
        {
            writeFixed<uint64_t>(out, view.offsets[row + 1] - first);
        }
        const uint64_t elements = view.offsets[view.rows] - first;
        for (size_t child = 0; child < nestedChildCount(view.type); ++child)
        {
            writeValues(out, view.children[child].slice(first, elements));
        }
        return;
    }
    out.writeBytes(view.data, view.rows * fixedWidth(view.type));
}

/// Nullable(T): a byte per row, 1 for NULL, before T's values (NULL rows hold a default).
void writeNullMap(WriteBuffer& out, const ColumnView& view)
{
    for (size_t row = 0; row < view.rows; ++row)
    {
        writeFixed<uint8_t>(out, view.isValid(row) ? 0 : 1);
    }
}

void readValues(ReadBuffer& in, Column& column, size_t rows, size_t& budget,
                const std::string& name)
{
    const auto charge = [&](size_t bytes)
    {
        if (bytes > budget)
        {
            throw Exception(ErrorCode::kTooLargeSize,
                            fmt::format("Block column '{}' exceeds the block size limit", name));
        }
        budget -= bytes;
    };
    if (isNested(column.type()))
    {
        // The end offsets first: they must grow, and their last is the children's row count.
        charge(rows * sizeof(uint64_t));
        std::vector<uint64_t> ends(rows);
        uint64_t previous = 0;
        for (uint64_t& end : ends)
        {
            end = readFixed<uint64_t>(in, "array offset");
            if (end < previous)
            {
                throw Exception(
                    ErrorCode::kIncorrectData,
                    fmt::format("Block column '{}' has decreasing array offsets", name));
            }
            previous = end;
        }
        const size_t elements = rows == 0 ? 0 : static_cast<size_t>(ends.back());
        const uint64_t base = column.child(0).size();
        for (size_t child = 0; child < nestedChildCount(column.type()); ++child)
        {
            readValues(in, column.child(child), elements, budget, name);
        }
        column.closeNestedRows(ends, base);
        return;
    }
    if (isString(column.type()))
    {
        for (size_t row = 0; row < rows; ++row)
        {
            const uint64_t size = readVarUInt(in, "string length");
            // Charged apart: a length near 2^64 plus the offset's bytes would wrap past the check.
            charge(size);
            charge(sizeof(uint64_t));
            std::string value(size, '\0');
            in.readBytes(value.data(), size, "string value");
            column.appendString(value);
        }
        return;
    }
    const size_t bytes = rows * fixedWidth(column.type());
    charge(bytes);
    column.resizeFixed(rows);
    in.readBytes(column.mutableData<char>(), bytes, "column values");
}

/// JSON's native serialization (shared structure, per-path Dynamic columns) is not written
/// or read: RowBinary and JSONEachRow over HTTP carry JSON columns.
void refuseJson(const std::string& name, TypeId type)
{
    if (type == TypeId::Json)
    {
        throw Exception(ErrorCode::kNotImplemented,
                        fmt::format("Column '{}' is JSON, which the native protocol does not "
                                    "carry here: use HTTP with RowBinary or JSONEachRow",
                                    name));
    }
}

}  // namespace

std::vector<NativeColumn> nativeColumns(const Block& block)
{
    std::vector<NativeColumn> columns;
    columns.reserve(block.columns.size());
    for (const Block::Entry& entry : block.columns)
    {
        refuseJson(entry.name, entry.column.type());
        columns.push_back(
            {entry.name, dataTypeName(binaryFormatType(entry.column.dataType())), &entry.column});
    }
    return columns;
}

void writeNativeBlock(WriteBuffer& out, const std::vector<NativeColumn>& columns, size_t rows)
{
    writeBlockInfo(out);
    writeVarUInt(out, columns.size());
    writeVarUInt(out, rows);
    for (const NativeColumn& column : columns)
    {
        writeString(out, column.name);
        writeString(out, column.type_name);
        if (rows > 0)
        {
            if (column.column->dataType().nullable)
            {
                writeNullMap(out, column.column->view());
            }
            writeValues(out, column.column->view());
        }
    }
}

std::optional<DataType> nativeType(std::string_view type_name)
{
    try
    {
        return parseDataType(type_name);
    }
    catch (const Exception&)
    {
        return std::nullopt;
    }
}

Block readNativeBlock(ReadBuffer& in, const NativeBlockLimits& limits, TypeResolver resolve,
                      std::vector<std::string>* type_names)
{
    readBlockInfo(in);
    const uint64_t column_count = readVarUInt(in, "block column count");
    const uint64_t rows = readVarUInt(in, "block row count");
    if (column_count > limits.max_columns || rows > limits.max_rows)
    {
        throw Exception(ErrorCode::kTooLargeSize,
                        fmt::format("Block of {} columns and {} rows exceeds the limits ({}, {})",
                                    column_count, rows, limits.max_columns, limits.max_rows));
    }
    size_t budget = limits.max_bytes;
    Block block;
    for (uint64_t i = 0; i < column_count; ++i)
    {
        std::string name = readString(in, limits.max_name_bytes, "column name");
        std::string type_name = readString(in, limits.max_name_bytes, "column type");
        const std::optional<DataType> type = resolve(type_name);
        if (!type)
        {
            throw Exception(ErrorCode::kUnknownType,
                            fmt::format("Column '{}' has type '{}', which Granary does not have",
                                        name, type_name));
        }
        refuseJson(name, type->id);
        if (type->valueType() != *type)
        {
            throw Exception(ErrorCode::kNotImplemented,
                            fmt::format("Column '{}' is {}: send its values as String (the "
                                        "native LowCardinality encoding is not read)",
                                        name, type_name));
        }
        Column column(*type);
        std::vector<uint8_t> null_map;
        if (type->nullable)
        {
            if (rows > budget)
            {
                throw Exception(
                    ErrorCode::kTooLargeSize,
                    fmt::format("Block column '{}' exceeds the block size limit", name));
            }
            budget -= rows;
            null_map.resize(rows);
            in.readBytes(null_map.data(), rows, "null map");
        }
        readValues(in, column, rows, budget, name);
        for (size_t row = 0; row < null_map.size(); ++row)
        {
            if (null_map[row] > 1)
            {
                throw Exception(ErrorCode::kIncorrectData,
                                fmt::format("Block column '{}' has null map byte {} at row {}",
                                            name, null_map[row], row + 1));
            }
            if (null_map[row] == 1)
            {
                column.setNull(row);
            }
        }
        if (type_names != nullptr)
        {
            type_names->push_back(std::move(type_name));
        }
        block.columns.push_back({std::move(name), std::move(column)});
    }
    return block;
}

}  // namespace granary::server
