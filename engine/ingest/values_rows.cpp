#include "engine/ingest/values_rows.h"

#include "engine/common/exception.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/formats/text_escaping.h"
#include "engine/formats/value_text.h"

namespace granary::ingest
{

std::string valuesAsTsv(const sql::InsertStatement& insert, size_t columns)
{
    const ColumnTypeLookup no_columns = [](std::string_view) -> std::optional<DataType>
    { return std::nullopt; };
    std::string text;
    for (size_t r = 0; r < insert.rows.size(); ++r)
    {
        const std::vector<sql::ExpressionPtr>& row = insert.rows[r];
        if (row.size() != columns)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "VALUES row " + std::to_string(r + 1) + " at " +
                                sql::describePosition(row.front()->position) + " has " +
                                std::to_string(row.size()) + " values for " +
                                std::to_string(columns) + " columns");
        }
        for (size_t c = 0; c < row.size(); ++c)
        {
            text += c == 0 ? "" : "\t";
            CompiledExpression value = [&]
            {
                try
                {
                    return compileExpression(row[c], no_columns);
                }
                catch (const Exception& error)
                {
                    throw Exception(error.code(),
                                    "VALUES row " + std::to_string(r + 1) + ": " + error.what());
                }
            }();
            Column holder;
            const ColumnView view = value.evaluate(BlockView{}, 0, 1, holder);
            if (!view.isValid(0))
            {
                text += "\\N";  // the loader's NULL, refused by a column that is not Nullable
            }
            else if (isString(view.type))
            {
                appendTsvEscaped(view.stringAt(0), text);
            }
            else
            {
                appendValue(view, 0, text);
            }
        }
        text += '\n';
    }
    return text;
}

}  // namespace granary::ingest
