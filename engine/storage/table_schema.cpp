#include "engine/storage/table_schema.h"

#include "engine/common/exception.h"

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
        const auto* column = key->as<sql::ColumnRef>();
        if (column == nullptr)
        {
            throw Exception(ErrorCode::kNotImplemented,
                            "sort key entries must be bare column names");
        }
        if (!schema.indexOf(column->name))
        {
            throw Exception(ErrorCode::kUnknownColumn,
                            "sort key column '" + column->name + "' is not a column of the table");
        }
        names.push_back(column->name);
    }
    return names;
}

}  // namespace

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
        schema.columns.push_back({column.name, column.type});
    }
    schema.sort_key = keyColumnNames(
        statement.order_by.empty() ? statement.primary_key : statement.order_by, schema);
    return schema;
}

bool operator==(const ColumnSchema& left, const ColumnSchema& right)
{
    return left.name == right.name && left.type == right.type;
}

bool operator==(const TableSchema& left, const TableSchema& right)
{
    return left.columns == right.columns && left.sort_key == right.sort_key;
}

}  // namespace granary
