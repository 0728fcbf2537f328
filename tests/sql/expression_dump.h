#pragma once

#include <string>
#include <variant>

#include "engine/sql/expression.h"
#include "engine/sql/formatter.h"
#include "engine/sql/overloaded.h"

namespace granary::sql
{

/// A fully parenthesised prefix form of an expression, literal types included, so that tests
/// can state a tree's shape in one string: `a + b * -1` is "(+ a (* b -1:Int64))".
inline std::string dump(const Expression& expression)
{
    const auto list = [](const std::vector<ExpressionPtr>& items)
    {
        std::string out;
        for (const ExpressionPtr& item : items)
        {
            out += ' ' + dump(*item);
        }
        return out;
    };
    return std::visit(
        Overloaded{
            [](const Literal& literal)
            {
                return std::visit(
                    Overloaded{
                        [](uint64_t v) { return std::to_string(v) + ":UInt64"; },
                        [](int64_t v) { return std::to_string(v) + ":Int64"; },
                        [](double v) { return formatLiteral(v) + ":Float64"; },
                        [](const std::string& v) { return formatStringLiteral(v); },
                        [](NullValue) { return std::string("NULL"); },
                    },
                    literal.value);
            },
            [](const ColumnRef& column) { return column.name; },
            [](const Asterisk&) { return std::string("*"); },
            [&](const FunctionCall& call)
            {
                const std::string parameters =
                    call.parametric ? " (PARAMETERS" + list(call.parameters) + ")" : "";
                const std::string filter =
                    call.filter ? " (FILTER " + dump(*call.filter) + ")" : "";
                return '(' + call.name + parameters + (call.distinct ? " DISTINCT" : "") +
                       list(call.arguments) + filter + ")";
            },
            [](const UnaryOperation& unary)
            {
                return std::string(unary.op == UnaryOperator::Not ? "(NOT " : "(NEG ") +
                       dump(*unary.operand) + ")";
            },
            [](const BinaryOperation& binary)
            {
                return '(' + std::string(binaryOperatorText(binary.op)) + " " + dump(*binary.left) +
                       " " + dump(*binary.right) + ")";
            },
            [&](const InList& in) {
                return std::string(in.negated ? "(NOT IN " : "(IN ") + dump(*in.value) +
                       list(in.list) + ")";
            },
            [](const CaseExpression& case_expression)
            {
                std::string out = "(CASE";
                if (case_expression.operand)
                {
                    out += ' ' + dump(*case_expression.operand);
                }
                for (const WhenClause& branch : case_expression.branches)
                {
                    out += " (WHEN " + dump(*branch.condition) + " " + dump(*branch.result) + ")";
                }
                if (case_expression.else_result)
                {
                    out += " (ELSE " + dump(*case_expression.else_result) + ")";
                }
                return out + ")";
            },
            [](const Extract& extract)
            {
                return "(EXTRACT " + std::string(datePartName(extract.part)) + " " +
                       dump(*extract.source) + ")";
            },
            [](const Subquery& subquery)
            { return "(SUBQUERY " + formatStatement(*subquery.query) + ")"; },
        },
        expression.node);
}

}  // namespace granary::sql
