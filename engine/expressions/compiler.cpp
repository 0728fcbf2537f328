#include <algorithm>
#include <ctime>
#include <string>
#include <utility>

#include "engine/common/describe_count.h"
#include "engine/common/exception.h"
#include "engine/expressions/arithmetic.h"
#include "engine/expressions/calendar.h"
#include "engine/expressions/collection_functions.h"
#include "engine/expressions/column_reference.h"
#include "engine/expressions/comparison.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/expressions/conditional.h"
#include "engine/expressions/date_functions.h"
#include "engine/expressions/datetime64.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/in_list.h"
#include "engine/expressions/intervals.h"
#include "engine/expressions/like.h"
#include "engine/expressions/logical.h"
#include "engine/expressions/null_functions.h"
#include "engine/expressions/regexp_replace.h"
#include "engine/expressions/string_functions.h"
#include "engine/expressions/type_rules.h"
#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/keywords.h"
#include "engine/storage/value_parser.h"

namespace granary
{
namespace
{

using sql::BinaryOperator;
using sql::Expression;

std::string where(const Expression& expression)
{
    return "at line " + std::to_string(expression.position.line) + ", column " +
           std::to_string(expression.position.column);
}

/// `text` of an expression, for messages.
std::string quoted(const Expression& expression)
{
    return "`" + sql::formatExpression(expression) + "`";
}

std::string typeText(TypeId type)
{
    return std::string(typeName(type));
}

Column oneValue(TypeId type, const auto& write)
{
    Column column(type);
    write(column);
    return column;
}

NodePtr constant(Column value)
{
    return std::make_shared<ConstantNode>(std::move(value));
}

/// Replaces a node that reads no column by its value, computed once now.
NodePtr fold(NodePtr node)
{
    if (!node->columns().empty() || node->constantValue())
    {
        return node;
    }
    Column holder;
    const ColumnView value = node->evaluate(BlockView{}, 0, 1, holder);
    Column folded(node->dataType());
    folded.appendRange(value.withValidity(nullptr), 0, 1);
    std::vector<uint8_t> valid;
    validityBytes(*node, BlockView{}, 0, 1, valid);
    if (!valid.empty() && valid[0] == 0)
    {
        folded.setNull(0);
    }
    return constant(std::move(folded));
}

std::optional<ComparisonOperator> comparisonOperator(BinaryOperator op)
{
    switch (op)
    {
        case BinaryOperator::Equals:
            return ComparisonOperator::Equals;
        case BinaryOperator::NotEquals:
            return ComparisonOperator::NotEquals;
        case BinaryOperator::Less:
            return ComparisonOperator::Less;
        case BinaryOperator::LessOrEquals:
            return ComparisonOperator::LessOrEquals;
        case BinaryOperator::Greater:
            return ComparisonOperator::Greater;
        case BinaryOperator::GreaterOrEquals:
            return ComparisonOperator::GreaterOrEquals;
        default:
            return std::nullopt;
    }
}

std::optional<ArithmeticOperator> arithmeticOperator(BinaryOperator op)
{
    switch (op)
    {
        case BinaryOperator::Plus:
            return ArithmeticOperator::Plus;
        case BinaryOperator::Minus:
            return ArithmeticOperator::Minus;
        case BinaryOperator::Multiply:
            return ArithmeticOperator::Multiply;
        case BinaryOperator::Divide:
            return ArithmeticOperator::Divide;
        case BinaryOperator::Modulo:
            return ArithmeticOperator::Modulo;
        default:
            return std::nullopt;
    }
}

/// "[], arrayStringConcat, ... and toString": what may take an Array or Map.
std::string functionsTakingCollections()
{
    std::vector<std::string_view> names = {"[]"};
    for (const ScalarFunction& function : scalarFunctions())
    {
        if (function.nested_first_argument && function.name != "arrayElement" &&
            !function.name.starts_with('_') && function.name != "getSubcolumn")
        {
            names.push_back(function.name);
        }
    }
    std::string listed;
    for (size_t i = 0; i < names.size(); ++i)
    {
        listed += i == 0 ? "" : i + 1 == names.size() ? " and " : ", ";
        listed += names[i];
    }
    return listed;
}

class Compiler final : public ArgumentCompiler
{
public:
    explicit Compiler(const ColumnTypeLookup& lookup) : lookup_(lookup) {}

    NodePtr compileArgument(const Expression& argument, bool nested_allowed) override
    {
        nested_allowed_ = nested_allowed;
        return compile(argument);
    }

    /// An Array or Map value may be the whole expression or an argument of the collection
    /// functions; anything else given one is kTypeMismatch, checked here once for all
    /// operators and functions.
    NodePtr compile(const Expression& expression)
    {
        const bool nested_allowed = std::exchange(nested_allowed_, false);
        NodePtr node = std::visit([&](const auto& node) { return compileNode(node, expression); },
                                  expression.node);
        if (isNested(node->type()) && !nested_allowed)
        {
            throw Exception(
                ErrorCode::kTypeMismatch,
                quoted(expression) + " is " + dataTypeName(node->dataType()) +
                    (node->type() == TypeId::Json
                         ? ": read its paths as column.path or getSubcolumn "
                         : ": only " + functionsTakingCollections() + " take arrays and maps ") +
                    where(expression));
        }
        return node;
    }

    /// Compiles the whole expression, which may be an Array or Map.
    NodePtr compileTop(const Expression& expression)
    {
        nested_allowed_ = true;
        return compile(expression);
    }

private:
    NodePtr compileNode(const sql::Literal& literal, const Expression&)
    {
        return std::visit(
            [](const auto& value)
            {
                using V = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<V, sql::NullValue>)
                {
                    return nullConstant(DataType(TypeId::UInt8));
                }
                else if constexpr (std::is_same_v<V, std::string>)
                {
                    return constant(oneValue(TypeId::String,
                                             [&](Column& column) { column.appendString(value); }));
                }
                else
                {
                    const TypeId type = std::is_same_v<V, uint64_t>  ? TypeId::UInt64
                                        : std::is_same_v<V, int64_t> ? TypeId::Int64
                                                                     : TypeId::Float64;
                    return constant(
                        oneValue(type, [&](Column& column) { column.template append<V>(value); }));
                }
            },
            literal.value);
    }

    NodePtr compileNode(const sql::ColumnRef& column, const Expression& expression)
    {
        const std::optional<DataType> type = lookup_ ? lookup_(column.name) : std::nullopt;
        if (!type)
        {
            throw Exception(ErrorCode::kUnknownColumn,
                            "Unknown column '" + column.name + "' " + where(expression));
        }
        return std::make_shared<ColumnReferenceNode>(column.name, *type);
    }

    NodePtr compileNode(const sql::Asterisk&, const Expression& expression)
    {
        throw Exception(ErrorCode::kBadArguments,
                        "'*' is not a value here (only count(*) takes it) " + where(expression));
    }

    NodePtr compileNode(const sql::UnaryOperation& operation, const Expression& expression)
    {
        NodePtr operand = compile(*operation.operand);
        if (isNullConstant(*operand))
        {
            return operand;
        }
        if (operation.op == sql::UnaryOperator::Not)
        {
            requireNumeric(operand, *operation.operand, "NOT", expression);
            return fold(makeNot(std::move(operand)));
        }
        const std::optional<TypeId> result = negateResultType(operand->type());
        if (!result)
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "Cannot negate " + quoted(*operation.operand) + " of type " +
                                typeText(operand->type()) + " " + where(expression));
        }
        return fold(makeNegate(std::move(operand), *result));
    }

    NodePtr compileNode(const sql::BinaryOperation& operation, const Expression& expression)
    {
        if (operation.op == BinaryOperator::And || operation.op == BinaryOperator::Or)
        {
            return compileConnective(operation.op, expression);
        }
        if (const auto op = comparisonOperator(operation.op))
        {
            return compileComparison(*op, *operation.left, *operation.right, expression);
        }
        if (const auto op = arithmeticOperator(operation.op))
        {
            return compileArithmetic(*op, operation, expression);
        }
        return compileLike(operation, expression);
    }

    NodePtr compileNode(const sql::InList& in, const Expression& expression)
    {
        NodePtr value = compile(*in.value);
        if (isNullConstant(*value))
        {
            return value;
        }
        if (in.list.size() == 1 && in.list[0]->as<sql::Subquery>())
        {
            const Column& set = subqueryResult(*in.list[0]);
            return fold(makeInSet(setComparable(std::move(value), *in.value, set, expression), set,
                                  in.negated));
        }
        // Each item next to the value as a comparison sees them (date literals parsed, a Date
        // value against a DateTime item converted); a set needs constants of the value's kind.
        std::vector<std::pair<NodePtr, NodePtr>> pairs;
        bool as_set = true;
        for (const sql::ExpressionPtr& item : in.list)
        {
            NodePtr compiled = compile(*item);
            if (isNullConstant(*compiled))
            {
                continue;  // x = NULL is never true: ClickHouse's IN skips NULLs
            }
            pairs.push_back(harmonize(value, *in.value, std::move(compiled), *item, expression));
            as_set = as_set && pairs.back().first == value && pairs.back().second->constantValue();
        }
        if (as_set)
        {
            std::vector<const Column*> constants;
            for (const auto& [unused, item] : pairs)
            {
                constants.push_back(item->constantValue());
            }
            return fold(makeInList(std::move(value), constants, in.negated));
        }
        std::vector<NodePtr> equalities;
        for (const auto& [left, right] : pairs)
        {
            equalities.push_back(fold(makeComparison(ComparisonOperator::Equals, left, right)));
        }
        NodePtr any = fold(makeOr(std::move(equalities)));
        return in.negated ? fold(makeNot(std::move(any))) : any;
    }

    /// A scalar subquery: its one value.
    NodePtr compileNode(const sql::Subquery&, const Expression& expression)
    {
        const Column& result = subqueryResult(expression);
        if (result.size() != 1)
        {
            throw Exception(ErrorCode::kIncorrectResultOfScalarSubquery,
                            "Scalar subquery " + where(expression) + " returned " +
                                std::to_string(result.size()) +
                                " rows; a scalar subquery must return exactly one");
        }
        return constant(result);
    }

    /// The rows of the subquery `expression` is, which the planner ran.
    static const Column& subqueryResult(const Expression& expression)
    {
        const auto& subquery = std::get<sql::Subquery>(expression.node);
        if (!subquery.result)
        {
            throw Exception(ErrorCode::kNotImplemented,
                            "Subqueries are not supported here " + where(expression));
        }
        return *subquery.result;
    }

    /// `value` as an IN over `set`'s values compares it: strings with strings, numbers with
    /// numbers, a Date with DateTimes as a DateTime.
    NodePtr setComparable(NodePtr value, const Expression& value_expression, const Column& set,
                          const Expression& expression)
    {
        const TypeId value_type = value->type();
        const TypeId set_type = set.type();
        if (value_type == TypeId::Date && set_type == TypeId::DateTime)
        {
            return fold(makeDateFunction(DateFunction::ToDateTime, std::move(value)));
        }
        const bool comparable =
            isString(value_type) == isString(set_type) && !isNested(value_type) &&
            !isNested(set_type) &&
            (value_type == set_type || !isDateOrTime(value_type) || !isDateOrTime(set_type));
        if (!comparable)
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "IN compares " + quoted(value_expression) + " of type " +
                                typeText(value_type) + " with a subquery of type " +
                                typeText(set_type) + " " + where(expression));
        }
        return value;
    }

    NodePtr compileNode(const sql::CaseExpression& expression_case, const Expression& expression)
    {
        std::vector<NodePtr> conditions;
        std::vector<NodePtr> results;
        NodePtr operand = expression_case.operand ? compile(*expression_case.operand) : nullptr;
        for (const sql::WhenClause& branch : expression_case.branches)
        {
            if (operand)
            {
                NodePtr value = compile(*branch.condition);
                auto [left, right] = harmonize(operand, *expression_case.operand, value,
                                               *branch.condition, expression);
                conditions.push_back(fold(makeComparison(ComparisonOperator::Equals, left, right)));
            }
            else
            {
                NodePtr condition = compile(*branch.condition);
                requireNumeric(condition, *branch.condition, "CASE WHEN", expression);
                conditions.push_back(std::move(condition));
            }
            results.push_back(compile(*branch.result));
        }
        NodePtr otherwise =
            expression_case.else_result ? compile(*expression_case.else_result) : nullptr;
        return fold(makeCaseOfBranches(conditions, results, std::move(otherwise),
                                       quoted(expression), where(expression)));
    }

    NodePtr compileNode(const sql::Extract& extract, const Expression& expression)
    {
        const DateFunction function = dateFunctionForPart(extract.part);
        NodePtr source = compile(*extract.source);
        if (!dateFunctionResultType(function, source->type()))
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "extract(" + std::string(sql::datePartName(extract.part)) +
                                " FROM ...) needs a DateTime" +
                                (function <= DateFunction::IsoWeek ? " or Date" : "") + ", but " +
                                quoted(*extract.source) + " is " + typeText(source->type()) + " " +
                                where(expression));
        }
        return fold(makeDateFunction(function, std::move(source)));
    }

    NodePtr compileNode(const sql::FunctionCall& call, const Expression& expression)
    {
        if (sql::isAggregateCall(expression))
        {
            throw Exception(ErrorCode::kUnknownFunction,
                            "Aggregate function " + quoted(expression) + " is not allowed here " +
                                where(expression));
        }
        if (call.distinct)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "DISTINCT is only for aggregate functions, not " + call.name + " " +
                                where(expression));
        }
        const ScalarFunction* function = findScalarFunction(call.name);
        if (!function)
        {
            throw Exception(ErrorCode::kUnknownFunction,
                            "Unknown function " + call.name + " " + where(expression));
        }
        checkArgumentCount(*function, call, expression);
        if (!function->takes_nulls && std::any_of(call.arguments.begin(), call.arguments.end(),
                                                  [](const sql::ExpressionPtr& argument)
                                                  { return isNullLiteral(*argument); }))
        {
            return nullConstant(DataType(TypeId::UInt8));
        }
        CallContext context(call, expression, *this, function->nested_first_argument);
        return fold(function->build(context));
    }

    static void checkArgumentCount(const ScalarFunction& function, const sql::FunctionCall& call,
                                   const Expression& expression)
    {
        const size_t count = call.arguments.size();
        if (count >= function.min_arguments && count <= function.max_arguments)
        {
            return;
        }
        throw Exception(
            ErrorCode::kBadArguments,
            "Function " + call.name + " takes " +
                describeCount(function.min_arguments, function.max_arguments, "argument") +
                ", got " + std::to_string(count) + " " + where(expression));
    }

    NodePtr compileConnective(BinaryOperator op, const Expression& expression)
    {
        // a AND b AND c parses as ((a AND b) AND c): one node over all operands.
        std::vector<const Expression*> operands;
        const std::function<void(const Expression&)> flatten = [&](const Expression& node)
        {
            const auto* operation = node.as<sql::BinaryOperation>();
            if (operation && operation->op == op)
            {
                flatten(*operation->left);
                flatten(*operation->right);
            }
            else
            {
                operands.push_back(&node);
            }
        };
        flatten(expression);
        std::vector<NodePtr> compiled;
        for (const Expression* operand : operands)
        {
            NodePtr node = compile(*operand);
            requireNumeric(node, *operand, op == BinaryOperator::And ? "AND" : "OR", expression);
            compiled.push_back(std::move(node));
        }
        return fold(op == BinaryOperator::And ? makeAnd(std::move(compiled))
                                              : makeOr(std::move(compiled)));
    }

    NodePtr compileComparison(ComparisonOperator op, const Expression& left_expression,
                              const Expression& right_expression, const Expression& expression)
    {
        NodePtr left = compile(left_expression);
        NodePtr right = compile(right_expression);
        if (NodePtr null = nullOperatorResult(*left, *right))
        {
            return null;
        }
        auto [harmonized_left, harmonized_right] =
            harmonize(left, left_expression, right, right_expression, expression);
        return fold(makeComparison(op, std::move(harmonized_left), std::move(harmonized_right)));
    }

    /// Brings two operands of a comparison to comparable types: a string literal next to a
    /// Date/DateTime becomes one, a Date next to a DateTime becomes a DateTime. Throws
    /// kTypeMismatch for anything else that mixes String with numbers.
    std::pair<NodePtr, NodePtr> harmonize(NodePtr left, const Expression& left_expression,
                                          NodePtr right, const Expression& right_expression,
                                          const Expression& expression)
    {
        const TypeId left_type = left->type();
        const TypeId right_type = right->type();
        if (isString(left_type) != isString(right_type))
        {
            // The literal is read as the other side's type: a DateTime64's in its own ticks.
            if (isDateOrTime(left_type) && right->constantValue())
            {
                return harmonize(left, left_expression,
                                 parseDateConstant(right, right_expression, left->dataType()),
                                 right_expression, expression);
            }
            if (isDateOrTime(right_type) && left->constantValue())
            {
                return harmonize(parseDateConstant(left, left_expression, right->dataType()),
                                 left_expression, right, right_expression, expression);
            }
            throw Exception(ErrorCode::kTypeMismatch,
                            "Cannot compare " + quoted(left_expression) + " of type " +
                                typeText(left_type) + " with " + quoted(right_expression) +
                                " of type " + typeText(right_type) + " " + where(expression));
        }
        if (left_type == TypeId::DateTime64 || right_type == TypeId::DateTime64)
        {
            return harmonizeDateTime64(std::move(left), std::move(right), expression);
        }
        if (left_type == TypeId::Date && right_type == TypeId::DateTime)
        {
            left = fold(makeDateFunction(DateFunction::ToDateTime, left));
        }
        if (left_type == TypeId::DateTime && right_type == TypeId::Date)
        {
            right = fold(makeDateFunction(DateFunction::ToDateTime, right));
        }
        return {left, right};
    }

    /// DateTime64 next to a Date, DateTime or DateTime64 of another precision: both sides as
    /// ticks of the finer precision. Numbers compare with the ticks as they are.
    std::pair<NodePtr, NodePtr> harmonizeDateTime64(NodePtr left, NodePtr right,
                                                    const Expression& expression)
    {
        const auto precisionOf = [](const NodePtr& node)
        { return node->type() == TypeId::DateTime64 ? node->dataType().precision : uint8_t{0}; };
        const uint8_t precision = std::max(precisionOf(left), precisionOf(right));
        for (NodePtr* side : {&left, &right})
        {
            const TypeId type = (*side)->type();
            if (!isDateOrTime(type) && !isInteger(type))
            {
                throw Exception(
                    ErrorCode::kTypeMismatch,
                    "Cannot compare DateTime64 with " + typeText(type) + " " + where(expression));
            }
            if (isDateOrTime(type) && precisionOf(*side) != precision)
            {
                *side = fold(makeDateTime64Ticks(*side, precision));
            }
        }
        return {left, right};
    }

    NodePtr parseDateConstant(const NodePtr& text, const Expression& text_expression,
                              const DataType& type)
    {
        const std::string_view value = text->constantValue()->stringAt(0);
        int64_t ticks = 0;
        if (type.id == TypeId::Date)
        {
            if (const std::optional<uint16_t> days = parseDateLiteral(value))
            {
                return constant(oneValue(type.id, [&](Column& column) { column.append(*days); }));
            }
        }
        else if (type.id == TypeId::DateTime64)
        {
            if (parseDateTime64(value, type.precision, ticks) == ParseStatus::kOk)
            {
                Column column(type);
                column.append(ticks);
                return constant(std::move(column));
            }
        }
        else if (const std::optional<uint32_t> seconds = parseDateTimeLiteral(value))
        {
            return constant(oneValue(type.id, [&](Column& column) { column.append(*seconds); }));
        }
        const std::string_view expected = type.id == TypeId::Date ? "'YYYY-MM-DD'"
                                          : type.id == TypeId::DateTime
                                              ? "'YYYY-MM-DD[ hh:mm:ss]'"
                                              : "'YYYY-MM-DD[ hh:mm:ss[.f]]'";
        throw Exception(ErrorCode::kTypeMismatch,
                        "Cannot parse " + quoted(text_expression) + " as " + dataTypeName(type) +
                            " (expected " + std::string(expected) + ") " + where(text_expression));
    }

    /// `INTERVAL n UNIT` (toIntervalUnit(n)) with n a constant integer; nullopt for another
    /// expression.
    std::optional<Interval> intervalOf(const Expression& expression) override
    {
        const auto* call = expression.as<sql::FunctionCall>();
        const std::optional<IntervalUnit> unit =
            call ? intervalFunctionUnit(lowerCaseAscii(call->name)) : std::nullopt;
        if (!unit)
        {
            return std::nullopt;
        }
        const NodePtr count = call->arguments.size() == 1 ? compile(*call->arguments[0]) : nullptr;
        if (!count || !count->constantValue() || !isInteger(count->type()) ||
            isDateOrTime(count->type()))
        {
            throw Exception(
                ErrorCode::kBadArguments,
                quoted(expression) + " needs a constant integer count " + where(expression));
        }
        const Column& value = *count->constantValue();
        return Interval{*unit,
                        dispatchFixedType(value.type(), [&]<typename T>(TypeTag<T>)
                                          { return static_cast<int64_t>(value.valueAt<T>(0)); })};
    }

    /// time ± INTERVAL (or INTERVAL + time); null when neither side is an interval.
    NodePtr compileTimeShift(ArithmeticOperator op, const sql::BinaryOperation& operation,
                             const Expression& expression)
    {
        std::optional<Interval> interval = intervalOf(*operation.right);
        const Expression* time_side = operation.left.get();
        if (!interval && op == ArithmeticOperator::Plus)
        {
            interval = intervalOf(*operation.left);
            time_side = operation.right.get();
        }
        if (!interval)
        {
            return nullptr;
        }
        if (op != ArithmeticOperator::Plus && op != ArithmeticOperator::Minus)
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "An INTERVAL is added to or subtracted from a time, not used in " +
                                quoted(expression) + " " + where(expression));
        }
        interval->count = op == ArithmeticOperator::Minus ? -interval->count : interval->count;
        NodePtr time = compile(*time_side);
        const std::string time_type = dataTypeName(time->dataType());
        if (NodePtr shifted = makeTimeShift(std::move(time), *interval))
        {
            return fold(std::move(shifted));
        }
        throw Exception(ErrorCode::kTypeMismatch,
                        "An INTERVAL moves a Date, DateTime or DateTime64, not " +
                            quoted(*time_side) + " of type " + time_type + " " + where(expression));
    }

    NodePtr compileArithmetic(ArithmeticOperator op, const sql::BinaryOperation& operation,
                              const Expression& expression)
    {
        if (NodePtr shifted = compileTimeShift(op, operation, expression))
        {
            return shifted;
        }
        NodePtr left = compile(*operation.left);
        NodePtr right = compile(*operation.right);
        if (NodePtr null = nullOperatorResult(*left, *right))
        {
            return null;
        }
        const std::optional<TypeId> result = arithmeticResultType(op, left->type(), right->type());
        if (!result)
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "Operator " + std::string(sql::binaryOperatorText(operation.op)) +
                                " does not apply to " + quoted(*operation.left) + " of type " +
                                typeText(left->type()) + " and " + quoted(*operation.right) +
                                " of type " + typeText(right->type()) + " " + where(expression));
        }
        const Column* divisor = right->constantValue();
        if (op == ArithmeticOperator::Modulo && !isFloat(*result) && divisor)
        {
            uint8_t non_zero = 0;
            nonZeroMask(divisor->view(), &non_zero);
            if (!non_zero)
            {
                throw Exception(
                    ErrorCode::kBadArguments,
                    "Division by zero in " + quoted(expression) + " " + where(expression));
            }
        }
        return fold(makeArithmetic(op, std::move(left), std::move(right), *result,
                                   quoted(expression) + " " + where(expression)));
    }

    NodePtr compileLike(const sql::BinaryOperation& operation, const Expression& expression)
    {
        const std::string operator_text(sql::binaryOperatorText(operation.op));
        NodePtr value = compile(*operation.left);
        if (isNullConstant(*value) || isNullLiteral(*operation.right))
        {
            return nullConstant(DataType(TypeId::UInt8));
        }
        if (!isString(value->type()))
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            operator_text + " needs a String on its left, but " +
                                quoted(*operation.left) + " is " + typeText(value->type()) + " " +
                                where(expression));
        }
        const NodePtr pattern_node = compile(*operation.right);
        const std::string pattern =
            constantString(pattern_node, *operation.right, operator_text, "pattern", expression);
        const bool case_insensitive =
            operation.op == BinaryOperator::ILike || operation.op == BinaryOperator::NotILike;
        const bool negated =
            operation.op == BinaryOperator::NotLike || operation.op == BinaryOperator::NotILike;
        return fold(makeLike(std::move(value), pattern, case_insensitive, negated));
    }

    static void requireNumeric(const NodePtr& node, const Expression& operand,
                               std::string_view user, const Expression& expression)
    {
        if (isString(node->type()))
        {
            throw Exception(ErrorCode::kTypeMismatch, std::string(user) + " needs a number, but " +
                                                          quoted(operand) + " is String " +
                                                          where(expression));
        }
    }

    static std::string constantString(const NodePtr& node, const Expression& operand,
                                      std::string_view user, std::string_view role,
                                      const Expression& expression)
    {
        const Column* value = node->constantValue();
        if (!value || !isString(value->type()))
        {
            throw Exception(ErrorCode::kBadArguments,
                            "The " + std::string(role) + " of " + std::string(user) +
                                " must be a constant String, not " + quoted(operand) + " " +
                                where(expression));
        }
        return std::string(value->stringAt(0));
    }

    const ColumnTypeLookup& lookup_;
    bool nested_allowed_ = false;  ///< For the expression compile() is about to compile.
};

}  // namespace

CompiledExpression compileExpression(const sql::ExpressionPtr& expression,
                                     const ColumnTypeLookup& lookup)
{
    if (!expression)
    {
        throw Exception(ErrorCode::kLogicalError, "compileExpression: no expression");
    }
    return CompiledExpression(Compiler(lookup).compileTop(*expression));
}

}  // namespace granary
