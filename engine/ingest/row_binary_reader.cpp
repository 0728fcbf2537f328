#include "engine/ingest/row_binary_reader.h"

#include <fmt/format.h>

#include "engine/ingest/json_values.h"

namespace granary::ingest
{

RowBinaryReader::RowBinaryReader(const TableSchema& schema, std::vector<size_t> field_columns,
                                 BinaryLimits limits, bool json_as_string)
    : schema_(schema),
      field_columns_(std::move(field_columns)),
      filled_(schema.columns.size(), false),
      limits_(limits),
      json_as_string_(json_as_string)
{
    for (const size_t column : field_columns_)
    {
        filled_[column] = true;
        const DataType& type = schema_.columns[column].type;
        field_widths_.push_back(type.id == TypeId::Bool ? 0 : fixedWidth(type.id));
        json_codecs_.emplace_back();
        if (type.id == TypeId::Json)
        {
            json_codecs_.back().emplace(type);
        }
    }
}

RowBinaryReader RowBinaryReader::fromHeader(const TableSchema& schema, BinaryCursor& cursor,
                                            BinaryLimits limits, bool json_as_string)
{
    const uint64_t count = cursor.readVarUInt();
    if (count > schema.columns.size())
    {
        cursor.fail(
            ErrorCode::kIncorrectData,
            fmt::format("header names {} columns, the table has {}", count, schema.columns.size()));
    }
    std::vector<std::string> names;
    for (uint64_t index = 0; index < count; ++index)
    {
        names.emplace_back(cursor.readString(limits));
    }
    for (const std::string& name : names)
    {
        if (!schema.indexOf(name))
        {
            throw Exception(ErrorCode::kNoSuchColumnInTable,
                            fmt::format("No column '{}' in the table", name));
        }
    }
    std::vector<size_t> field_columns = schema.fieldColumns(names);
    for (size_t index = 0; index < count; ++index)
    {
        const std::string_view type = cursor.readString(limits);
        const ColumnSchema& column = schema.columns[field_columns[index]];
        if (type != dataTypeName(column.type))
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            fmt::format("Column '{}' is {} in the table, {} in the header",
                                        column.name, dataTypeName(column.type), type));
        }
    }
    return RowBinaryReader(schema, std::move(field_columns), limits, json_as_string);
}

std::vector<Block> RowBinaryReader::readAll(BinaryCursor& cursor) const
{
    std::vector<Block> blocks;
    Block block = schema_.emptyBlock();
    std::vector<Column*> fields;
    for (const size_t index : field_columns_)
    {
        fields.push_back(&block.columns[index].column);
    }
    size_t rows = 0;
    size_t row_number = 0;
    while (!cursor.atEnd())
    {
        ++row_number;
        try
        {
            readRow(cursor, fields);
        }
        catch (const Exception& error)
        {
            throw Exception(error.code(), fmt::format("{}, at row {}", error.what(), row_number));
        }
        if (++rows == kBlockRows)
        {
            fillDefaults(block, rows);
            blocks.push_back(std::exchange(block, schema_.emptyBlock()));
            for (size_t field = 0; field < fields.size(); ++field)
            {
                fields[field] = &block.columns[field_columns_[field]].column;
                // The next block is as large as this one was: grow once, not by doubling.
                const ColumnView previous =
                    blocks.back().columns[field_columns_[field]].column.view();
                fields[field]->reserve(
                    kBlockRows, isString(previous.type) ? previous.offsets[previous.rows] : 0);
            }
            rows = 0;
        }
    }
    if (rows > 0)
    {
        fillDefaults(block, rows);
        blocks.push_back(std::move(block));
    }
    return blocks;
}

void RowBinaryReader::readRow(BinaryCursor& cursor, std::vector<Column*>& fields) const
{
    for (size_t field = 0; field < fields.size(); ++field)
    {
        Column& column = *fields[field];
        try
        {
            const size_t width = field_widths_[field];
            if (width != 0)
            {
                column.appendRaw(cursor.readBytes(width).data());
            }
            else if (const std::optional<JsonColumnCodec>& json = json_codecs_[field])
            {
                readJson(cursor, *json, column);
            }
            else
            {
                readValue(cursor, column);
            }
        }
        catch (const Exception& error)
        {
            rethrowInField(error, field);
        }
    }
}

void RowBinaryReader::readValue(BinaryCursor& cursor, Column& column) const
{
    switch (column.type())
    {
        case TypeId::String:
            column.appendString(cursor.readString(limits_));
            return;
        case TypeId::Bool:
            column.append(cursor.readZeroOrOne("Bool byte"));
            return;
        case TypeId::Array:
        case TypeId::Map:
        {
            const uint64_t count = cursor.readElementCount(limits_);
            for (uint64_t i = 0; i < count; ++i)
            {
                readValue(cursor, column.child(0));
                if (column.type() == TypeId::Map)
                {
                    readValue(cursor, column.child(1));
                }
            }
            column.closeNestedRow();
            return;
        }
        case TypeId::Json:
        {
            // Inside an Array or Map: a plain JSON (the parser refuses parameters there).
            static const JsonColumnCodec plain_json(DataType::json());
            readJson(cursor, plain_json, column);
            return;
        }
        default:
            column.appendRaw(cursor.readBytes(fixedWidth(column.type())).data());
            return;
    }
}

void RowBinaryReader::readJson(BinaryCursor& cursor, const JsonColumnCodec& codec,
                               Column& column) const
{
    if (json_as_string_)
    {
        appendJsonText(cursor.readString(limits_), codec, column);
    }
    else
    {
        codec.readRowBinary(cursor, column, limits_);
    }
}

void RowBinaryReader::rethrowInField(const Exception& error, size_t field) const
{
    const ColumnSchema& column = schema_.columns[field_columns_[field]];
    throw Exception(error.code(), fmt::format("{}, column '{}' ({})", error.what(), column.name,
                                              dataTypeName(column.type)));
}

void RowBinaryReader::fillDefaults(Block& block, size_t rows) const
{
    for (size_t index = 0; index < filled_.size(); ++index)
    {
        if (filled_[index])
        {
            continue;
        }
        block.columns[index].column.appendMissing(rows);
    }
}

}  // namespace granary::ingest
