#include "tests/arrow/arrow_round_trip.h"

#include "tests/arrow/column_rendering.h"

namespace granary::arrow::testing
{

ArrowField plainField(std::string name, TypeId type, bool nullable, std::string format)
{
    ArrowField field;
    field.name = std::move(name);
    field.type = type;
    field.nullable = nullable;
    field.format = std::move(format);
    return field;
}

Block blockOf(const ImportedBatch& batch, const std::vector<ArrowField>& fields)
{
    Block block;
    for (size_t i = 0; i < fields.size(); ++i)
    {
        Column column(fields[i].type);
        column.appendRange(batch.columns[i], 0, batch.rows);
        block.columns.push_back({fields[i].name, std::move(column)});
    }
    return block;
}

std::vector<std::vector<std::string>> renderBatch(const ImportedBatch& batch)
{
    std::vector<std::vector<std::string>> columns;
    for (const ColumnView& column : batch.columns)
    {
        columns.push_back(renderRows(column));
    }
    return columns;
}

std::vector<std::vector<std::string>> renderBlock(const Block& block)
{
    std::vector<std::vector<std::string>> columns;
    for (const Block::Entry& entry : block.columns)
    {
        columns.push_back(renderRows(entry.column.view()));
    }
    return columns;
}

ExportedBatch::~ExportedBatch()
{
    if (array.release != nullptr)
    {
        array.release(&array);
    }
    if (schema.release != nullptr)
    {
        schema.release(&schema);
    }
}

}  // namespace granary::arrow::testing
