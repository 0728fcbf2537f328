#include "engine/storage/table_schema.h"

#include <algorithm>

#include "engine/common/exception.h"

namespace granary
{

std::string_view partFormatName(PartFormat format)
{
    return format == PartFormat::kRaw ? "raw" : "compressed";
}

PartFormat partFormatFromName(std::string_view name)
{
    if (name == "raw")
    {
        return PartFormat::kRaw;
    }
    if (name == "compressed")
    {
        return PartFormat::kEncoded;
    }
    throw Exception(
        ErrorCode::kBadArguments,
        "storage_format must be 'raw' or 'compressed', not '" + std::string(name) + "'");
}

std::optional<size_t> TableSchema::indexOf(std::string_view column) const
{
    for (size_t index = 0; index < columns.size(); ++index)
    {
        if (columns[index].name == column)
        {
            return index;
        }
    }
    return std::nullopt;
}

Block TableSchema::emptyBlock() const
{
    Block block;
    for (const ColumnSchema& column : columns)
    {
        block.columns.push_back({column.name, Column(column.type)});
    }
    return block;
}

std::vector<size_t> TableSchema::fieldColumns(const std::vector<std::string>& names) const
{
    std::vector<size_t> indexes;
    if (names.empty())
    {
        for (size_t index = 0; index < columns.size(); ++index)
        {
            indexes.push_back(index);
        }
        return indexes;
    }
    for (const std::string& name : names)
    {
        const std::optional<size_t> index = indexOf(name);
        if (!index)
        {
            throw Exception(ErrorCode::kUnknownColumn, "unknown column '" + name + "'");
        }
        if (std::find(indexes.begin(), indexes.end(), *index) != indexes.end())
        {
            throw Exception(ErrorCode::kBadArguments, "column '" + name + "' given twice");
        }
        indexes.push_back(*index);
    }
    return indexes;
}

std::vector<size_t> TableSchema::sortKeyColumns() const
{
    std::vector<size_t> indexes;
    for (const std::string& name : sort_key)
    {
        const std::optional<size_t> index = indexOf(name);
        if (!index)
        {
            throw Exception(ErrorCode::kUnknownColumn,
                            "sort key column '" + name + "' is not a column of the table");
        }
        indexes.push_back(*index);
    }
    return indexes;
}

void TableSchema::validate(std::string_view table) const
{
    if (columns.empty())
    {
        throw Exception(ErrorCode::kBadArguments,
                        "table '" + std::string(table) + "' must have at least one column");
    }
    for (size_t index = 0; index < columns.size(); ++index)
    {
        if (indexOf(columns[index].name) != index)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "column '" + columns[index].name + "' is defined twice");
        }
    }
    for (const size_t index : sortKeyColumns())
    {
        if (isNested(columns[index].type.id))
        {
            throw Exception(ErrorCode::kNotImplemented,
                            "sort key column '" + columns[index].name + "' is an Array or Map");
        }
        if (columns[index].type.nullable)
        {
            // As ClickHouse without allow_nullable_key: granule bounds have no place for NULL.
            throw Exception(ErrorCode::kIllegalColumn,
                            "sort key column '" + columns[index].name + "' is " +
                                dataTypeName(columns[index].type) +
                                ": a sort key cannot contain Nullable columns");
        }
    }
    for (size_t k = 0; k < sort_key.size(); ++k)
    {
        if (std::find(sort_key.begin(), sort_key.begin() + k, sort_key[k]) != sort_key.begin() + k)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "sort key column '" + sort_key[k] + "' is named twice");
        }
    }
}

bool operator==(const ColumnSchema& left, const ColumnSchema& right)
{
    return left.name == right.name && left.type == right.type && left.codec == right.codec;
}

bool operator==(const TableSchema& left, const TableSchema& right)
{
    return left.columns == right.columns && left.sort_key == right.sort_key &&
           left.part_format == right.part_format;
}

}  // namespace granary
