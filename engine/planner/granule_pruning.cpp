#include "engine/planner/granule_pruning.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <utility>

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
        case BinaryOperator::NotEquals:
            return BinaryOperator::NotEquals;
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

/// A bound test: `bound op constant` on the granules' maximum (true) or minimum (false).
using BoundAlternative = std::pair<BinaryOperator, bool>;

/// Calls may_match(op, on_maximum) for each bound test a granule must pass to hold a row of
/// `key op constant`: its range overlaps the condition's.
template <typename F>
void forEachMayMatchTest(BinaryOperator op, F&& may_match)
{
    switch (op)
    {
        case BinaryOperator::Equals:
            may_match(BinaryOperator::LessOrEquals, false);
            may_match(BinaryOperator::GreaterOrEquals, true);
            break;
        case BinaryOperator::NotEquals:
            break;  // Only a granule of one value could be skipped.
        case BinaryOperator::Less:
        case BinaryOperator::LessOrEquals:
            may_match(op, false);
            break;
        default:
            may_match(op, true);
            break;
    }
}

/// Calls prove({alternatives}) for each proof that every row of a granule satisfies `key op
/// constant` (its range lies within the condition's); a proof holds where any of its
/// alternatives holds on the bounds.
template <typename F>
void forEachWholeMatchProof(BinaryOperator op, F&& prove)
{
    switch (op)
    {
        case BinaryOperator::Equals:
            prove({BoundAlternative{BinaryOperator::LessOrEquals, true}});
            prove({BoundAlternative{BinaryOperator::GreaterOrEquals, false}});
            break;
        case BinaryOperator::NotEquals:
            prove({BoundAlternative{BinaryOperator::Less, true},
                   BoundAlternative{BinaryOperator::Greater, false}});
            break;
        case BinaryOperator::Less:
        case BinaryOperator::LessOrEquals:
            prove({BoundAlternative{op, true}});
            break;
        default:
            prove({BoundAlternative{op, false}});
            break;
    }
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
    proves_whole_granules_ = true;
    for (const sql::ExpressionPtr& conjunct : conjuncts)
    {
        const std::optional<KeyComparison> comparison = asKeyComparison(*conjunct, schema);
        if (!comparison)
        {
            proves_whole_granules_ = false;
            continue;
        }
        const DataType& full_type = schema.columns[*schema.indexOf(comparison->column)].type;
        const DataType type = full_type.valueType();
        auto test = [&](BinaryOperator op, bool on_maximum)
        {
            return BoundTest{comparison->sort_key_index, on_maximum, comparison->column,
                             compileBoundTest(*comparison, op, type)};
        };
        const size_t tests_before = tests_.size();
        const size_t proofs_before = proofs_.size();
        try
        {
            forEachMayMatchTest(comparison->op, [&](BinaryOperator op, bool on_maximum)
                                { tests_.push_back(test(op, on_maximum)); });
            // NULLs match no comparison; NaN orders apart in the bounds.
            if (full_type.nullable || !isInteger(type.id))
            {
                proves_whole_granules_ = false;
                continue;
            }
            forEachWholeMatchProof(comparison->op,
                                   [&](std::initializer_list<BoundAlternative> alternatives)
                                   {
                                       WholeGranuleProof proof;
                                       for (const auto& [op, on_maximum] : alternatives)
                                       {
                                           proof.any_of.push_back(test(op, on_maximum));
                                       }
                                       proofs_.push_back(std::move(proof));
                                   });
        }
        catch (const Exception&)
        {
            // The filter itself reports a condition that does not compile.
            tests_.erase(tests_.begin() + static_cast<std::ptrdiff_t>(tests_before), tests_.end());
            proofs_.erase(proofs_.begin() + static_cast<std::ptrdiff_t>(proofs_before),
                          proofs_.end());
            proves_whole_granules_ = false;
        }
    }
}

std::vector<bool> GranulePruner::evaluate(const BoundTest& bound, const Part& part)
{
    const ColumnView bounds = bound.on_maximum ? part.granuleMax(bound.sort_key_index)
                                               : part.granuleMin(bound.sort_key_index);
    BlockView input;
    input.add(bound.column, bounds);
    Column holder;
    const ColumnView result = bound.test.evaluate(input, 0, bounds.rows, holder);
    std::vector<bool> holds(bounds.rows);
    dispatchFixedType(result.type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          for (size_t g = 0; g < holds.size(); ++g)
                          {
                              holds[g] = result.valueAt<T>(g) != T{};
                          }
                      });
    return holds;
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
        const std::vector<bool> holds = evaluate(bound, part);
        for (size_t g = 0; g < mask.size(); ++g)
        {
            mask[g] = mask[g] && holds[g];
        }
    }
    return mask;
}

std::vector<bool> GranulePruner::granulesMatchedWhole(const Part& part) const
{
    std::vector<bool> matched(part.granules(), proves_whole_granules_);
    for (const WholeGranuleProof& proof : proofs_)
    {
        std::vector<bool> any(matched.size(), false);
        for (const BoundTest& bound : proof.any_of)
        {
            const std::vector<bool> holds = evaluate(bound, part);
            for (size_t g = 0; g < any.size(); ++g)
            {
                any[g] = any[g] || holds[g];
            }
        }
        for (size_t g = 0; g < matched.size(); ++g)
        {
            matched[g] = matched[g] && any[g];
        }
    }
    return matched;
}

}  // namespace granary
