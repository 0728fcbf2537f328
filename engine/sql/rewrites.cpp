#include "engine/sql/rewrites.h"

#include <string>
#include <unordered_map>

#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/keywords.h"

namespace granary::sql
{
namespace
{

class SumRewriter
{
public:
    explicit SumRewriter(const SumRewriteOptions& options) : options_(options) {}

    ExpressionPtr operator()(const ExpressionPtr& node)
    {
        const auto* call = node->as<FunctionCall>();
        if (!call || call->distinct || call->arguments.size() != 1 ||
            !equalsIgnoringCase(call->name, "sum"))
        {
            return node;
        }
        const auto* shifted = call->arguments.front()->as<BinaryOperation>();
        if (!shifted ||
            (shifted->op != BinaryOperator::Plus && shifted->op != BinaryOperator::Minus))
        {
            return node;
        }
        const bool column_first =
            isRewritableColumn(*shifted->left) && isNumericLiteral(*shifted->right);
        const bool constant_first =
            isNumericLiteral(*shifted->left) && isRewritableColumn(*shifted->right);
        if (!column_first && !constant_first)
        {
            return node;
        }
        const ExpressionPtr& column = column_first ? shifted->left : shifted->right;
        const ExpressionPtr& constant = column_first ? shifted->right : shifted->left;
        const SourcePosition position = node->position;

        const ExpressionPtr sum = sharedCall(call->name, column, position);
        const ExpressionPtr scaled_count =
            makeExpression(BinaryOperation{BinaryOperator::Multiply, constant,
                                           sharedCall("count", column, position)},
                           position);
        // k - x is the one form whose sum comes second: k * count(x) - sum(x).
        const bool constant_minus_column = constant_first && shifted->op == BinaryOperator::Minus;
        return makeExpression(constant_minus_column
                                  ? BinaryOperation{BinaryOperator::Minus, scaled_count, sum}
                                  : BinaryOperation{shifted->op, sum, scaled_count},
                              position);
    }

private:
    bool isRewritableColumn(const Expression& expression) const
    {
        const auto* column = expression.as<ColumnRef>();
        return column && (!options_.accepts_column || options_.accepts_column(column->name));
    }

    /// One node per distinct call, shared by every rewritten sum.
    ExpressionPtr sharedCall(const std::string& function, const ExpressionPtr& column,
                             const SourcePosition& position)
    {
        FunctionCall call{function, {column}, false};
        const std::string key = aggregateKey(call);
        auto [slot, inserted] = created_.try_emplace(key);
        if (inserted)
        {
            slot->second = makeExpression(std::move(call), position);
        }
        return slot->second;
    }

    const SumRewriteOptions& options_;
    std::unordered_map<std::string, ExpressionPtr> created_;
};

}  // namespace

SelectStatement rewriteSumOfColumnAndConstant(const SelectStatement& select,
                                              const SumRewriteOptions& options)
{
    SumRewriter rewriter(options);
    const auto rewrite = [&](const ExpressionPtr& expression)
    { return transformBottomUp(expression, std::ref(rewriter)); };

    SelectStatement rewritten = select;
    for (SelectItem& item : rewritten.items)
    {
        ExpressionPtr replaced = rewrite(item.expression);
        if (replaced != item.expression && !item.alias)
        {
            item.alias = formatExpression(*item.expression);
        }
        item.expression = std::move(replaced);
    }
    if (rewritten.having)
    {
        rewritten.having = rewrite(rewritten.having);
    }
    for (OrderByItem& item : rewritten.order_by)
    {
        item.expression = rewrite(item.expression);
    }
    return rewritten;
}

}  // namespace granary::sql
