#include "engine/planner/granule_pruning.h"

#include <algorithm>
#include <optional>

#include "engine/common/exception.h"
#include "engine/expressions/compiled_expression.h"

namespace granary
{
namespace
{

using sql::BinaryOperator;

void splitConjuncts(const sql::ExpressionPtr& expression, std::vector<sql::ExpressionPtr>& out)
{
    const auto* operation = expression->as<sql::BinaryOperation>();
    if (operation && operation->op == BinaryOperator::And)
    {
        splitConjuncts(operation->left, out);
        splitConjuncts(operation->right, out);
        return;
    }
    out.push_back(expression);
}

std::optional<BinaryOperator> mirrored(BinaryOperator op)
{
    switch (op)
    {
        case BinaryOperator::Equals:
            return BinaryOperator::Equals;
        case BinaryOperator::Less:
            return BinaryOperator::Greater;
        case BinaryOperator::LessOrEquals:
            return BinaryOperator::GreaterOrEquals;
        case BinaryOperator::Greater:
            return BinaryOperator::Less;
        case BinaryOperator::GreaterOrEquals:
            return BinaryOperator::LessOrEquals;
        default:
            return std::nullopt;
    }
}

/// `key op constant`, with the key's position in the sort key.
struct KeyComparison
{
    size_t sort_key_index;
    std::string column;
    BinaryOperator op;
    sql::ExpressionPtr constant;
};

std::optional<KeyComparison> asKeyComparison(const sql::Expression& conjunct,
                                             const TableSchema& schema)
{
    const auto* operation = conjunct.as<sql::BinaryOperation>();
    if (!operation || !mirrored(operation->op))
    {
        return std::nullopt;
    }
    const sql::ExpressionPtr* column_side = &operation->left;
    const sql::ExpressionPtr* constant_side = &operation->right;
    BinaryOperator op = operation->op;
    if (!(*column_side)->as<sql::ColumnRef>())
    {
        std::swap(column_side, constant_side);
        op = *mirrored(op);
    }
    const auto* column = (*column_side)->as<sql::ColumnRef>();
    if (!column || !(*constant_side)->as<sql::Literal>())
    {
        return std::nullopt;
    }
    const auto key = std::find(schema.sort_key.begin(), schema.sort_key.end(), column->name);
    if (key == schema.sort_key.end())
    {
        return std::nullopt;
    }
    return KeyComparison{static_cast<size_t>(key - schema.sort_key.begin()), column->name, op,
                         *constant_side};
}

CompiledExpression compileBoundTest(const KeyComparison& comparison, BinaryOperator op,
                                    const DataType& type)
{
    const sql::ExpressionPtr test = sql::makeExpression(sql::BinaryOperation{
        op, sql::makeExpression(sql::ColumnRef{comparison.column}), comparison.constant});
    // The full type: a DateTime64 bound compares with a time literal in its own ticks.
    return compileExpression(test,
                             [&](std::string_view name) -> std::optional<DataType>
                             {
                                 if (name == comparison.column)
                                 {
                                     return type;
                                 }
                                 return std::nullopt;
                             });
}

}  // namespace

GranulePruner::GranulePruner(const TableSchema& schema, const sql::ExpressionPtr& where)
{
    if (!where)
    {
        return;
    }
    std::vector<sql::ExpressionPtr> conjuncts;
    splitConjuncts(where, conjuncts);
    for (const sql::ExpressionPtr& conjunct : conjuncts)
    {
        const std::optional<KeyComparison> comparison = asKeyComparison(*conjunct, schema);
        if (!comparison)
        {
            continue;
        }
        const DataType type = schema.columns[*schema.indexOf(comparison->column)].type.valueType();
        auto add = [&](BinaryOperator op, bool on_maximum)
        {
            tests_.push_back({comparison->sort_key_index, on_maximum, comparison->column,
                              compileBoundTest(*comparison, op, type)});
        };
        const size_t tests_before = tests_.size();
        try
        {
            // A granule may hold a match when its range overlaps the condition's.
            switch (comparison->op)
            {
                case BinaryOperator::Equals:
                    add(BinaryOperator::LessOrEquals, false);
                    add(BinaryOperator::GreaterOrEquals, true);
                    break;
                case BinaryOperator::Less:
                case BinaryOperator::LessOrEquals:
                    add(comparison->op, false);
                    break;
                default:
                    add(comparison->op, true);
                    break;
            }
        }
        catch (const Exception&)
        {
            // The filter itself reports a condition that does not compile.
            tests_.erase(tests_.begin() + static_cast<std::ptrdiff_t>(tests_before), tests_.end());
        }
    }
}

std::vector<bool> GranulePruner::granulesToRead(const Part& part) const
{
    std::vector<bool> mask(part.granules(), true);
    for (const BoundTest& bound : tests_)
    {
        if (mask.empty())
        {
            break;
        }
        const ColumnView bounds = bound.on_maximum ? part.granuleMax(bound.sort_key_index)
                                                   : part.granuleMin(bound.sort_key_index);
        BlockView input;
        input.add(bound.column, bounds);
        Column holder;
        const ColumnView result = bound.test.evaluate(input, 0, bounds.rows, holder);
        dispatchFixedType(result.type,
                          [&]<typename T>(TypeTag<T>)
                          {
                              for (size_t g = 0; g < mask.size(); ++g)
                              {
                                  if (result.valueAt<T>(g) == T{})
                                  {
                                      mask[g] = false;
                                  }
                              }
                          });
    }
    return mask;
}

}  // namespace granary
