#include "engine/session/insert_select.h"

#include <string>

#include "engine/common/exception.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/sql/source_position.h"

namespace granary
{
namespace
{

/// `values` converted to `type` with CAST's rules; `where` names the column for errors.
Column converted(const ColumnView& values, const DataType& type, const std::string& where)
{
    const std::string input = "\x01value";
    BlockView single;
    single.columns.push_back({input, values});
    const sql::ExpressionPtr cast = sql::makeExpression(
        sql::FunctionCall{"CAST",
                          {sql::makeExpression(sql::ColumnRef{input}),
                           sql::makeExpression(sql::Literal{dataTypeName(type)})},
                          false});
    const CompiledExpression compiled = compileExpression(
        cast,
        [&](std::string_view name) -> std::optional<DataType>
        { return name == input ? std::optional(DataType::of(values)) : std::nullopt; });
    Column holder;
    const ColumnView result = compiled.evaluate(single, 0, values.rows, holder);
    Column column(type.valueType().withoutNullable());
    column.appendRange(result, 0, result.rows);
    if (type.nullable)
    {
        column.setNullable();
        return column;
    }
    for (size_t row = 0; row < result.rows; ++row)
    {
        if (!result.isValid(row))
        {
            throw Exception(ErrorCode::kCannotParseInput, "row " + std::to_string(row + 1) +
                                                              " of the SELECT: NULL into " + where +
                                                              " of type " + dataTypeName(type) +
                                                              ", which is not Nullable");
        }
    }
    column.clearNulls();
    return column;
}

}  // namespace

std::vector<Block> rowsToInsert(Block rows, const TableSchema& schema,
                                const sql::InsertStatement& insert)
{
    const std::vector<size_t> targets = schema.fieldColumns(insert.columns);
    if (rows.columns.size() != targets.size())
    {
        throw Exception(ErrorCode::kBadArguments, "INSERT INTO " + insert.table + " at " +
                                                      sql::describePosition(insert.position) +
                                                      " takes " + std::to_string(targets.size()) +
                                                      " columns, its SELECT gives " +
                                                      std::to_string(rows.columns.size()));
    }
    Block block;
    for (size_t i = 0; i < targets.size(); ++i)
    {
        const ColumnSchema& target = schema.columns[targets[i]];
        Column& values = rows.columns[i].column;
        const std::string where = "column '" + target.name + "'";
        if (target.type.isAggregateState())
        {
            if (values.dataType() != target.type)
            {
                throw Exception(ErrorCode::kTypeMismatch,
                                "INSERT into " + where + " of type " + dataTypeName(target.type) +
                                    " takes its states, not " + dataTypeName(values.dataType()));
            }
            block.columns.push_back({target.name, std::move(values)});
            continue;
        }
        block.columns.push_back({target.name, converted(values.view(), target.type, where)});
    }
    std::vector<Block> blocks;
    blocks.push_back(std::move(block));
    return blocks;
}

}  // namespace granary
