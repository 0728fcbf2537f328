#include "engine/planner/array_join.h"

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "engine/sql/formatter.h"

namespace granary
{

ArrayJoinStep::ArrayJoinStep(const sql::ArrayJoinClause& clause, const ColumnTypeLookup& lookup)
    : array_(compileExpression(clause.array, lookup)), alias_(clause.alias), left_(clause.left)
{
    if (array_.dataType().id != TypeId::Array)
    {
        throw Exception(ErrorCode::kTypeMismatch,
                        "ARRAY JOIN takes an array, not `" + sql::formatExpression(*clause.array) +
                            "` of type " + dataTypeName(array_.dataType()) + " at " +
                            sql::describePosition(clause.array->position));
    }
}

ColumnTypeLookup ArrayJoinStep::withElement(ColumnTypeLookup lookup) const
{
    return [lookup = std::move(lookup), alias = alias_,
            element = array_.dataType().element()](std::string_view name) -> std::optional<DataType>
    { return name == alias ? std::optional<DataType>(element) : lookup(name); };
}

size_t ArrayJoinStep::expand(const BlockView& input, size_t rows, Buffers& buffers,
                             BlockView& out) const
{
    const ColumnView array = array_.evaluate(input, 0, rows, buffers.array);
    const ColumnView& items = array.children[0];
    buffers.repeated.clear();
    buffers.elements = Column(DataType::of(items));
    for (size_t row = 0; row < rows; ++row)
    {
        const uint64_t first = array.offsets[row];
        const uint64_t count = array.offsets[row + 1] - first;
        if (count == 0 && left_)
        {
            buffers.repeated.push_back(static_cast<uint32_t>(row));
            buffers.elements.appendDefaults(1);
            continue;
        }
        buffers.repeated.insert(buffers.repeated.end(), count, static_cast<uint32_t>(row));
        buffers.elements.appendRange(items, first, count);
    }
    buffers.columns.resize(input.columns.size());
    for (size_t i = 0; i < input.columns.size(); ++i)
    {
        const BlockView::Entry& entry = input.columns[i];
        if (entry.name == alias_)
        {
            continue;  // The element stands for it.
        }
        Column& repeated = buffers.columns[i];
        repeated = Column::emptyLike(entry.column);
        gatherRows(entry.column, 0, buffers.repeated, repeated);
        out.add(entry.name, repeated.view());
    }
    out.add(alias_, buffers.elements.view());
    return buffers.repeated.size();
}

}  // namespace granary
