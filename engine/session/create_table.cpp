#include "engine/session/create_table.h"

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

/// The columns the key expressions read, each once; none for `tuple()`.
std::vector<std::string> keyColumnNames(const std::vector<sql::ExpressionPtr>& keys)
{
    std::vector<std::string> names;
    for (const sql::ExpressionPtr& key : keys)
    {
        if (keys.size() == 1 && isEmptyTuple(*key))
        {
            break;
        }
        const std::string name = keyColumnOf(*key);
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

TableSchema tableSchemaOf(const sql::CreateTableStatement& statement)
{
    TableSchema schema;
    for (const sql::ColumnDefinition& column : statement.columns)
    {
        schema.columns.push_back({column.name, column.type, columnCodec(column)});
    }
    schema.sort_key =
        keyColumnNames(statement.order_by.empty() ? statement.primary_key : statement.order_by);
    schema.part_format = partFormatSetting(statement.settings);
    schema.validate(statement.table);
    return schema;
}

void createTable(Database& database, const sql::CreateTableStatement& statement)
{
    const ExistingTable existing = statement.or_replace      ? ExistingTable::kReplace
                                   : statement.if_not_exists ? ExistingTable::kKeep
                                                             : ExistingTable::kFail;
    database.createTable(statement.table, tableSchemaOf(statement), existing);
}

}  // namespace granary
