#include "engine/sql/expression.h"

#include <algorithm>
#include <array>

#include "engine/common/exception.h"
#include "engine/sql/keywords.h"
#include "engine/sql/overloaded.h"
#include "engine/sql/statement.h"

namespace granary::sql
{
namespace
{

struct DatePartNameEntry
{
    DatePart part;
    std::string_view name;
};

/// Indexed by DatePart.
constexpr std::array<DatePartNameEntry, 8> kDatePartNames = {{
    {DatePart::Year, "YEAR"},
    {DatePart::Quarter, "QUARTER"},
    {DatePart::Month, "MONTH"},
    {DatePart::Week, "WEEK"},
    {DatePart::Day, "DAY"},
    {DatePart::Hour, "HOUR"},
    {DatePart::Minute, "MINUTE"},
    {DatePart::Second, "SECOND"},
}};

bool sameNode(const Literal& left, const Literal& right)
{
    return left.value == right.value;
}

bool sameNode(const ColumnRef& left, const ColumnRef& right)
{
    return left.name == right.name;
}

bool sameNode(const Asterisk&, const Asterisk&)
{
    return true;
}

bool sameNode(const FunctionCall& left, const FunctionCall& right)
{
    return left.name == right.name && left.distinct == right.distinct &&
           left.parametric == right.parametric &&
           sameExpressions(left.parameters, right.parameters) &&
           sameExpressions(left.arguments, right.arguments) &&
           sameExpression(left.filter, right.filter);
}

bool sameNode(const UnaryOperation& left, const UnaryOperation& right)
{
    return left.op == right.op && sameExpression(left.operand, right.operand);
}

bool sameNode(const BinaryOperation& left, const BinaryOperation& right)
{
    return left.op == right.op && sameExpression(left.left, right.left) &&
           sameExpression(left.right, right.right);
}

bool sameNode(const InList& left, const InList& right)
{
    return left.negated == right.negated && sameExpression(left.value, right.value) &&
           sameExpressions(left.list, right.list);
}

bool sameNode(const CaseExpression& left, const CaseExpression& right)
{
    return sameExpression(left.operand, right.operand) &&
           sameExpression(left.else_result, right.else_result) &&
           std::equal(left.branches.begin(), left.branches.end(), right.branches.begin(),
                      right.branches.end(),
                      [](const WhenClause& a, const WhenClause& b) {
                          return sameExpression(a.condition, b.condition) &&
                                 sameExpression(a.result, b.result);
                      });
}

bool sameNode(const Extract& left, const Extract& right)
{
    return left.part == right.part && sameExpression(left.source, right.source);
}

/// Results are compared by identity: equal subqueries filled by different runs differ.
bool sameNode(const Subquery& left, const Subquery& right)
{
    return *left.query == *right.query && left.result == right.result;
}

void appendIfPresent(std::vector<ExpressionPtr>& list, const ExpressionPtr& expression)
{
    if (expression)
    {
        list.push_back(expression);
    }
}

/// Hands out replacement children in order, checking that exactly as many were given as
/// the node has.
class ChildSupply
{
public:
    explicit ChildSupply(const std::vector<ExpressionPtr>& children) : children_(children) {}

    ExpressionPtr next()
    {
        if (next_ == children_.size())
        {
            throw Exception(ErrorCode::kLogicalError, "withChildren: too few children");
        }
        return children_[next_++];
    }
    ExpressionPtr nextIfPresent(const ExpressionPtr& original)
    {
        return original ? next() : nullptr;
    }
    void expectAllUsed() const
    {
        if (next_ != children_.size())
        {
            throw Exception(ErrorCode::kLogicalError, "withChildren: too many children");
        }
    }

private:
    const std::vector<ExpressionPtr>& children_;
    size_t next_ = 0;
};

}  // namespace

std::string_view datePartName(DatePart part)
{
    return kDatePartNames[static_cast<size_t>(part)].name;
}

std::optional<DatePart> datePartFromName(std::string_view name)
{
    for (const DatePartNameEntry& entry : kDatePartNames)
    {
        if (equalsIgnoringCase(name, entry.name))
        {
            return entry.part;
        }
    }
    return std::nullopt;
}

ExpressionPtr makeExpression(Expression::Node node, SourcePosition position)
{
    auto expression = std::make_shared<Expression>();
    expression->node = std::move(node);
    expression->position = position;
    for (const ExpressionPtr& child : children(*expression))
    {
        expression->height = std::max(expression->height, child->height + 1);
    }
    return expression;
}

bool isNumericLiteral(const Expression& expression)
{
    const auto* literal = expression.as<Literal>();
    return literal && !std::holds_alternative<std::string>(literal->value) &&
           !std::holds_alternative<NullValue>(literal->value);
}

bool isNullLiteral(const Expression& expression)
{
    const auto* literal = expression.as<Literal>();
    return literal && std::holds_alternative<NullValue>(literal->value);
}

std::vector<ExpressionPtr> children(const Expression& expression)
{
    std::vector<ExpressionPtr> list;
    std::visit(
        Overloaded{
            [](const Literal&) {},
            [](const ColumnRef&) {},
            [](const Asterisk&) {},
            [&](const FunctionCall& call)
            {
                list = call.parameters;
                list.insert(list.end(), call.arguments.begin(), call.arguments.end());
                appendIfPresent(list, call.filter);
            },
            [&](const UnaryOperation& unary) { list.push_back(unary.operand); },
            [&](const BinaryOperation& binary)
            {
                list.push_back(binary.left);
                list.push_back(binary.right);
            },
            [&](const InList& in)
            {
                list.push_back(in.value);
                list.insert(list.end(), in.list.begin(), in.list.end());
            },
            [&](const CaseExpression& case_expression)
            {
                appendIfPresent(list, case_expression.operand);
                for (const WhenClause& branch : case_expression.branches)
                {
                    list.push_back(branch.condition);
                    list.push_back(branch.result);
                }
                appendIfPresent(list, case_expression.else_result);
            },
            [&](const Extract& extract) { list.push_back(extract.source); },
            [](const Subquery&) {},
        },
        expression.node);
    return list;
}

ExpressionPtr withChildren(const Expression& expression, const std::vector<ExpressionPtr>& replaced)
{
    ChildSupply supply(replaced);
    Expression::Node node = std::visit(
        Overloaded{
            [](const Literal& literal) -> Expression::Node { return literal; },
            [](const ColumnRef& column) -> Expression::Node { return column; },
            [](const Asterisk& asterisk) -> Expression::Node { return asterisk; },
            [&](const FunctionCall& call) -> Expression::Node
            {
                FunctionCall copy{call.name, {}, call.distinct, call.parametric};
                for (size_t i = 0; i < call.parameters.size(); ++i)
                {
                    copy.parameters.push_back(supply.next());
                }
                for (size_t i = 0; i < call.arguments.size(); ++i)
                {
                    copy.arguments.push_back(supply.next());
                }
                copy.filter = supply.nextIfPresent(call.filter);
                return copy;
            },
            [&](const UnaryOperation& unary) -> Expression::Node {
                return UnaryOperation{unary.op, supply.next()};
            },
            // Braced initialisers run left to right, so the children arrive in order.
            [&](const BinaryOperation& binary) -> Expression::Node {
                return BinaryOperation{binary.op, supply.next(), supply.next()};
            },
            [&](const InList& in) -> Expression::Node
            {
                InList copy{supply.next(), {}, in.negated};
                for (size_t i = 0; i < in.list.size(); ++i)
                {
                    copy.list.push_back(supply.next());
                }
                return copy;
            },
            [&](const CaseExpression& case_expression) -> Expression::Node
            {
                CaseExpression copy;
                copy.operand = supply.nextIfPresent(case_expression.operand);
                for (size_t i = 0; i < case_expression.branches.size(); ++i)
                {
                    copy.branches.push_back({supply.next(), supply.next()});
                }
                copy.else_result = supply.nextIfPresent(case_expression.else_result);
                return copy;
            },
            [&](const Extract& extract) -> Expression::Node {
                return Extract{extract.part, supply.next()};
            },
            [](const Subquery& subquery) -> Expression::Node { return subquery; },
        },
        expression.node);
    supply.expectAllUsed();
    return makeExpression(std::move(node), expression.position);
}

ExpressionPtr transformBottomUp(const ExpressionPtr& root,
                                const std::function<ExpressionPtr(const ExpressionPtr&)>& rewrite)
{
    const std::vector<ExpressionPtr> original = children(*root);
    std::vector<ExpressionPtr> transformed;
    transformed.reserve(original.size());
    bool changed = false;
    for (const ExpressionPtr& child : original)
    {
        transformed.push_back(transformBottomUp(child, rewrite));
        changed = changed || transformed.back() != child;
    }
    return rewrite(changed ? withChildren(*root, transformed) : root);
}

bool operator==(const Expression& left, const Expression& right)
{
    if (left.node.index() != right.node.index())
    {
        return false;
    }
    return std::visit([&]<typename Node>(const Node& left_node)
                      { return sameNode(left_node, std::get<Node>(right.node)); },
                      left.node);
}

bool sameExpression(const ExpressionPtr& left, const ExpressionPtr& right)
{
    if (!left || !right)
    {
        return !left && !right;
    }
    return left == right || *left == *right;
}

bool sameExpressions(const std::vector<ExpressionPtr>& left,
                     const std::vector<ExpressionPtr>& right)
{
    return std::equal(left.begin(), left.end(), right.begin(), right.end(), sameExpression);
}

}  // namespace granary::sql
