#include "engine/storage/table_schema.h"

#include <algorithm>

#include "engine/common/exception.h"
#include "engine/sql/formatter.h"

namespace granary
{
namespace
{

/// `ORDER BY tuple()` means no key, as in ClickHouse.
bool isEmptyTuple(const sql::Expression& expression)
{
    const auto* call = expression.as<sql::FunctionCall>();
    return call != nullptr && call->name == "tuple" && call->arguments.empty();
}

void collectColumns(const sql::Expression& expression, std::vector<std::string>& columns)
{
    if (const auto* column = expression.as<sql::ColumnRef>())
    {
        if (std::find(columns.begin(), columns.end(), column->name) == columns.end())
        {
            columns.push_back(column->name);
        }
    }
    for (const sql::ExpressionPtr& child : sql::children(expression))
    {
        collectColumns(*child, columns);
    }
}

/// The one column a key expression reads.
std::string keyColumnOf(const sql::Expression& key)
{
    std::vector<std::string> columns;
    collectColumns(key, columns);
    if (columns.size() != 1)
    {
        throw Exception(
            ErrorCode::kNotImplemented,
            "sort key entry '" + sql::formatExpression(key) + "' must read exactly one column");
    }
    return columns.front();
}

std::vector<std::string> keyColumnNames(const std::vector<sql::ExpressionPtr>& keys,
                                        const TableSchema& schema)
{
    std::vector<std::string> names;
    for (const sql::ExpressionPtr& key : keys)
    {
        if (keys.size() == 1 && isEmptyTuple(*key))
        {
            break;
        }
        const std::string name = keyColumnOf(*key);
        const std::optional<size_t> index = schema.indexOf(name);
        if (!index)
        {
            throw Exception(ErrorCode::kUnknownColumn,
                            "sort key column '" + name + "' is not a column of the table");
        }
        if (isNested(schema.columns[*index].type.id))
        {
            throw Exception(ErrorCode::kNotImplemented,
                            "sort key column '" + name + "' is an Array or Map");
        }
        if (std::find(names.begin(), names.end(), name) == names.end())
        {
            names.push_back(name);
        }
    }
    return names;
}

encoding::CodecChoice columnCodec(const sql::ColumnDefinition& column)
{
    if (column.codec.empty())
    {
        return {};
    }
    try
    {
        return encoding::CodecChoice::parseChain(column.codec);
    }
    catch (const Exception& error)
    {
        throw Exception(error.code(), "column '" + column.name + "': " + error.what());
    }
}

PartFormat partFormatSetting(const std::vector<sql::Setting>& settings)
{
    PartFormat format = PartFormat::kEncoded;
    // Other MergeTree settings (ClickBench's fsync_after_insert...) are accepted and ignored.
    for (const sql::Setting& setting : settings)
    {
        if (setting.name != "storage_format")
        {
            continue;
        }
        const auto* name = std::get_if<std::string>(&setting.value);
        if (name == nullptr)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "storage_format must be 'raw' or 'compressed'");
        }
        format = partFormatFromName(*name);
    }
    return format;
}

}  // namespace

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

TableSchema TableSchema::fromCreate(const sql::CreateTableStatement& statement)
{
    TableSchema schema;
    if (statement.columns.empty())
    {
        throw Exception(ErrorCode::kBadArguments,
                        "table '" + statement.table + "' must have at least one column");
    }
    for (const sql::ColumnDefinition& column : statement.columns)
    {
        if (schema.indexOf(column.name))
        {
            throw Exception(ErrorCode::kBadArguments,
                            "column '" + column.name + "' is defined twice");
        }
        schema.columns.push_back({column.name, column.type, columnCodec(column)});
    }
    schema.sort_key = keyColumnNames(
        statement.order_by.empty() ? statement.primary_key : statement.order_by, schema);
    schema.part_format = partFormatSetting(statement.settings);
    return schema;
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
