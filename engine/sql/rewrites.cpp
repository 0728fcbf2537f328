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

/// The largest shift k that sum(x + k) is rewritten with (see SumRewriter::isShift).
constexpr int64_t kMaxCheckedShift = int64_t{1} << 31;

class SumRewriter
{
public:
    explicit SumRewriter(const SumRewriteOptions& options) : options_(options) {}

    ExpressionPtr operator()(const ExpressionPtr& node)
    {
        const auto* call = node->as<FunctionCall>();
        const bool checked = call && equalsIgnoringCase(call->name, "sum");
        if (!call || call->distinct || call->parametric || call->filter ||
            call->arguments.size() != 1 ||
            !(checked || equalsIgnoringCase(call->name, "sumWithOverflow")))
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
            isRewritableColumn(*shifted->left, checked) && isShift(*shifted->right, checked);
        const bool constant_first =
            isShift(*shifted->left, checked) && isRewritableColumn(*shifted->right, checked);
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
    /// k: a number literal; for sum, a float or an integer below kMaxCheckedShift in
    /// magnitude, so that over fewer than 2^32 rows of a column narrower than 64 bits neither
    /// form overflows (then sum's overflow error and the rewritten arithmetic's wrap cannot
    /// differ).
    static bool isShift(const Expression& expression, bool checked)
    {
        if (!isNumericLiteral(expression))
        {
            return false;
        }
        const LiteralValue& value = expression.as<Literal>()->value;
        if (!checked || std::holds_alternative<double>(value))
        {
            return true;
        }
        if (const auto* natural = std::get_if<uint64_t>(&value))
        {
            return *natural < static_cast<uint64_t>(kMaxCheckedShift);
        }
        const auto* integer = std::get_if<int64_t>(&value);
        return integer && *integer > -kMaxCheckedShift && *integer < kMaxCheckedShift;
    }

    bool isRewritableColumn(const Expression& expression, bool checked) const
    {
        const auto* column = expression.as<ColumnRef>();
        return column &&
               (!options_.accepts_column || options_.accepts_column(column->name, checked));
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
