#include "engine/sql/formatter.h"

#include <charconv>
#include <limits>

#include "engine/sql/keywords.h"
#include "engine/sql/overloaded.h"

namespace granary::sql
{
namespace
{

constexpr char kHexDigits[] = "0123456789ABCDEF";

/// Binding strength of what an expression prints as, mirroring the parser's levels: an
/// operand that binds more loosely than its context needs parentheses.
enum Precedence : int
{
    kOrLevel = 1,
    kAndLevel,
    kNotLevel,
    kComparisonLevel,
    kAdditiveLevel,
    kMultiplicativeLevel,
    kUnaryMinusLevel,
    kPrimaryLevel,
};

Precedence binaryPrecedence(BinaryOperator op)
{
    switch (op)
    {
        case BinaryOperator::Or:
            return kOrLevel;
        case BinaryOperator::And:
            return kAndLevel;
        case BinaryOperator::Plus:
        case BinaryOperator::Minus:
            return kAdditiveLevel;
        case BinaryOperator::Multiply:
        case BinaryOperator::Divide:
        case BinaryOperator::Modulo:
            return kMultiplicativeLevel;
        default:
            return kComparisonLevel;
    }
}

Precedence precedence(const Expression& expression)
{
    if (const auto* binary = expression.as<BinaryOperation>())
    {
        return binaryPrecedence(binary->op);
    }
    if (const auto* unary = expression.as<UnaryOperation>())
    {
        return unary->op == UnaryOperator::Not ? kNotLevel : kUnaryMinusLevel;
    }
    if (expression.as<InList>())
    {
        return kComparisonLevel;
    }
    return kPrimaryLevel;
}

bool isPlainIdentifier(std::string_view name)
{
    if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    {
        return false;
    }
    for (const char c : name)
    {
        const bool word_char =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!word_char)
        {
            return false;
        }
    }
    return true;
}

/// Escapes the quote, backslashes and control bytes; other bytes (UTF-8 or not) stay as
/// they are.
std::string quoted(std::string_view text, char quote)
{
    std::string out(1, quote);
    for (const char c : text)
    {
        const auto byte = static_cast<unsigned char>(c);
        if (c == quote || c == '\\')
        {
            out += '\\';
            out += c;
        }
        else if (c == '\n')
        {
            out += "\\n";
        }
        else if (c == '\t')
        {
            out += "\\t";
        }
        else if (c == '\r')
        {
            out += "\\r";
        }
        else if (c == '\0')
        {
            out += "\\0";
        }
        else if (byte < 0x20 || byte == 0x7F)
        {
            out += "\\x";
            out += kHexDigits[byte >> 4];
            out += kHexDigits[byte & 0xF];
        }
        else
        {
            out += c;
        }
    }
    out += quote;
    return out;
}

/// Shortest text that reads back as the same double, always with a '.' or an exponent so
/// that it reads back as a float.
std::string formatFloat(double value)
{
    char buffer[std::numeric_limits<double>::max_digits10 + 16];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
    std::string text(buffer, error == std::errc() ? end : buffer);
    if (text.find_first_of(".e") == std::string::npos)
    {
        text += ".0";
    }
    return text;
}

template <typename Item, typename Format>
std::string joined(const std::vector<Item>& items, Format&& format)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
    {
        out += i == 0 ? "" : ", ";
        out += format(items[i]);
    }
    return out;
}

std::string expressionList(const std::vector<ExpressionPtr>& list)
{
    return joined(list, [](const ExpressionPtr& item) { return formatExpression(*item); });
}

std::string operand(const Expression& expression, bool parenthesize)
{
    const std::string text = formatExpression(expression);
    return parenthesize ? "(" + text + ")" : text;
}

std::string formatNode(const Literal& literal)
{
    return formatLiteral(literal.value);
}

std::string formatNode(const ColumnRef& column)
{
    return formatIdentifier(column.name);
}

std::string formatNode(const Asterisk&)
{
    return "*";
}

std::string formatNode(const FunctionCall& call)
{
    const std::string parameters =
        call.parametric ? "(" + expressionList(call.parameters) + ")" : "";
    const std::string filter =
        call.filter ? " FILTER (WHERE " + formatExpression(*call.filter) + ")" : "";
    return formatIdentifier(call.name) + parameters + "(" + (call.distinct ? "DISTINCT " : "") +
           expressionList(call.arguments) + ")" + filter;
}

std::string formatNode(const UnaryOperation& unary)
{
    const Expression& inner = *unary.operand;
    if (unary.op == UnaryOperator::Not)
    {
        return "NOT " + operand(inner, precedence(inner) < kNotLevel);
    }
    // A number right after '-' would be read as a negative literal, and "--" starts a comment.
    const bool parenthesize = precedence(inner) < kUnaryMinusLevel || isNumericLiteral(inner) ||
                              inner.as<UnaryOperation>() != nullptr;
    return '-' + operand(inner, parenthesize);
}

std::string formatNode(const BinaryOperation& binary)
{
    const Precedence level = binaryPrecedence(binary.op);
    // Operators associate to the left: a right operand at the same level keeps its parentheses.
    return operand(*binary.left, precedence(*binary.left) < level) + " " +
           std::string(binaryOperatorText(binary.op)) + " " +
           operand(*binary.right, precedence(*binary.right) <= level);
}

std::string formatNode(const InList& in)
{
    const bool subquery = in.list.size() == 1 && in.list[0]->as<Subquery>();
    return operand(*in.value, precedence(*in.value) < kComparisonLevel) +
           (in.negated ? " NOT IN " : " IN ") +
           (subquery ? formatExpression(*in.list[0]) : "(" + expressionList(in.list) + ")");
}

std::string formatNode(const CaseExpression& case_expression)
{
    std::string out = "CASE";
    if (case_expression.operand)
    {
        out += ' ' + formatExpression(*case_expression.operand);
    }
    for (const WhenClause& branch : case_expression.branches)
    {
        out += " WHEN " + formatExpression(*branch.condition) + " THEN " +
               formatExpression(*branch.result);
    }
    if (case_expression.else_result)
    {
        out += " ELSE " + formatExpression(*case_expression.else_result);
    }
    return out + " END";
}

std::string formatSelect(const SelectStatement& select);

std::string formatNode(const Subquery& subquery)
{
    return '(' + formatSelect(*subquery.query) + ')';
}

std::string formatNode(const Extract& extract)
{
    return "extract(" + std::string(datePartName(extract.part)) + " FROM " +
           formatExpression(*extract.source) + ")";
}

std::string keyList(const std::vector<ExpressionPtr>& keys)
{
    return '(' + expressionList(keys) + ')';
}

std::string formatLimit(uint64_t limit, uint64_t offset)
{
    return " LIMIT " + std::to_string(limit) +
           (offset != 0 ? " OFFSET " + std::to_string(offset) : "");
}

std::string formatSelectBody(const SelectStatement& select)
{
    std::string out = select.distinct ? "SELECT DISTINCT " : "SELECT ";
    out += joined(select.items,
                  [](const SelectItem& item)
                  {
                      std::string text = formatExpression(*item.expression);
                      if (item.alias)
                      {
                          text += " AS " + formatIdentifier(*item.alias);
                      }
                      return text;
                  });
    if (select.hasSource())
    {
        out += " FROM " + (select.from ? formatIdentifier(*select.from)
                                       : '(' + formatSelect(*select.from_subquery) + ')');
        if (select.from_alias)
        {
            out += " AS " + formatIdentifier(*select.from_alias);
        }
        if (const std::optional<ArrayJoinClause>& join = select.array_join)
        {
            out += std::string(join->left ? " LEFT" : "") + " ARRAY JOIN " +
                   formatExpression(*join->array) + " AS " + formatIdentifier(join->alias);
        }
    }
    if (select.where)
    {
        out += " WHERE " + formatExpression(*select.where);
    }
    switch (select.grouping)
    {
        case Grouping::kKeys:
            out += select.group_by.empty() ? "" : " GROUP BY " + expressionList(select.group_by);
            break;
        case Grouping::kRollup:
            out += " GROUP BY ROLLUP" + keyList(select.group_by);
            break;
        case Grouping::kCube:
            out += " GROUP BY CUBE" + keyList(select.group_by);
            break;
        case Grouping::kGroupingSets:
            out += " GROUP BY GROUPING SETS (" + joined(select.grouping_sets, keyList) + ")";
            break;
    }
    out += select.with_totals ? " WITH TOTALS" : "";
    if (select.having)
    {
        out += " HAVING " + formatExpression(*select.having);
    }
    if (!select.order_by.empty())
    {
        out += " ORDER BY " + joined(select.order_by,
                                     [](const OrderByItem& item)
                                     {
                                         return formatExpression(*item.expression) +
                                                (item.descending ? " DESC" : "") +
                                                (item.nulls_first ? " NULLS FIRST" : "");
                                     });
    }
    if (select.limit_by)
    {
        out += formatLimit(select.limit_by->limit, select.limit_by->offset) + " BY " +
               expressionList(select.limit_by->keys);
    }
    if (select.limit)
    {
        out += formatLimit(*select.limit, select.offset);
    }
    else if (select.offset != 0)
    {
        out += " OFFSET " + std::to_string(select.offset);
    }
    return out;
}

std::string formatSelect(const SelectStatement& select)
{
    std::string out;
    if (!select.with.empty())
    {
        out =
            "WITH " +
            joined(
                select.with, [](const CommonTableExpression& cte)
                { return formatIdentifier(cte.name) + " AS (" + formatSelect(*cte.query) + ")"; }) +
            " ";
    }
    out += formatSelectBody(select);
    for (const SelectStatementPtr& branch : select.union_all)
    {
        out += " UNION ALL " + formatSelectBody(*branch);
    }
    return out;
}

std::string formatCreateTable(const CreateTableStatement& create)
{
    std::string out = "CREATE ";
    out += create.or_replace ? "OR REPLACE TABLE " : "TABLE ";
    out += create.if_not_exists ? "IF NOT EXISTS " : "";
    out += formatIdentifier(create.table) + " (";
    out += joined(create.columns,
                  [](const ColumnDefinition& column)
                  {
                      std::string text =
                          formatIdentifier(column.name) + " " + dataTypeName(column.type);
                      text += column.not_null ? " NOT NULL" : "";
                      if (column.default_value)
                      {
                          text += " DEFAULT " + formatExpression(*column.default_value);
                      }
                      if (!column.codec.empty())
                      {
                          text += " CODEC(" + column.codec + ")";
                      }
                      return text;
                  });
    for (const IndexDefinition& index : create.indexes)
    {
        out += ", INDEX " + formatIdentifier(index.name) + " " +
               formatExpression(*index.expression) + " TYPE " + formatExpression(*index.type) +
               " GRANULARITY " + std::to_string(index.granularity);
    }
    if (!create.primary_key.empty())
    {
        out += ", PRIMARY KEY " + keyList(create.primary_key);
    }
    out += ")";
    if (create.engine)
    {
        out += " ENGINE = " + formatIdentifier(*create.engine);
        if (!create.engine_arguments.empty())
        {
            out += keyList(create.engine_arguments);
        }
    }
    if (create.partition_by)
    {
        out += " PARTITION BY " + formatExpression(*create.partition_by);
    }
    if (!create.order_by.empty())
    {
        out += " ORDER BY " + keyList(create.order_by);
    }
    if (create.ttl)
    {
        out += " TTL " + formatExpression(*create.ttl);
    }
    if (!create.settings.empty())
    {
        out += " SETTINGS " + joined(create.settings,
                                     [](const Setting& setting) {
                                         return formatIdentifier(setting.name) + " = " +
                                                formatLiteral(setting.value);
                                     });
    }
    return out;
}

std::string formatInsert(const InsertStatement& insert)
{
    std::string out = "INSERT INTO " + formatIdentifier(insert.table);
    if (!insert.columns.empty())
    {
        out += " (" + joined(insert.columns, formatIdentifier) + ")";
    }
    if (insert.select)
    {
        out += " " + formatSelect(*insert.select);
    }
    if (insert.infile)
    {
        out += " FROM INFILE " + formatStringLiteral(*insert.infile);
    }
    if (!insert.rows.empty())
    {
        out += " VALUES " + joined(insert.rows, keyList);
    }
    else if (insert.format)
    {
        out += " FORMAT " + formatIdentifier(*insert.format);
    }
    return out;
}

}  // namespace

std::string formatExpression(const Expression& expression)
{
    return std::visit([](const auto& node) { return formatNode(node); }, expression.node);
}

std::string formatStatement(const Statement& statement)
{
    return std::visit(
        Overloaded{
            [](const SelectStatement& select) { return formatSelect(select); },
            [](const CreateTableStatement& create) { return formatCreateTable(create); },
            [](const InsertStatement& insert) { return formatInsert(insert); },
            [](const DropTableStatement& drop)
            {
                return std::string("DROP TABLE ") + (drop.if_exists ? "IF EXISTS " : "") +
                       formatIdentifier(drop.table);
            },
            [](const ShowTablesStatement&) { return std::string("SHOW TABLES"); },
            [](const DescribeTableStatement& describe)
            { return "DESCRIBE TABLE " + formatIdentifier(describe.table); },
        },
        statement);
}

std::string formatScript(const std::vector<Statement>& statements)
{
    std::string out;
    for (size_t i = 0; i < statements.size(); ++i)
    {
        out += i == 0 ? "" : ";\n";
        out += formatStatement(statements[i]);
    }
    return out;
}

std::string formatIdentifier(std::string_view name)
{
    if (isPlainIdentifier(name) && !isReservedKeyword(name))
    {
        return std::string(name);
    }
    return quoted(name, '`');
}

std::string formatStringLiteral(std::string_view text)
{
    return quoted(text, '\'');
}

std::string formatLiteral(const LiteralValue& value)
{
    return std::visit(
        Overloaded{
            [](uint64_t integer) { return std::to_string(integer); },
            [](int64_t integer) { return std::to_string(integer); },
            [](double number) { return formatFloat(number); },
            [](const std::string& text) { return formatStringLiteral(text); },
            [](NullValue) { return std::string("NULL"); },
        },
        value);
}

std::string_view binaryOperatorText(BinaryOperator op)
{
    switch (op)
    {
        case BinaryOperator::Or:
            return "OR";
        case BinaryOperator::And:
            return "AND";
        case BinaryOperator::Equals:
            return "=";
        case BinaryOperator::NotEquals:
            return "<>";
        case BinaryOperator::Less:
            return "<";
        case BinaryOperator::LessOrEquals:
            return "<=";
        case BinaryOperator::Greater:
            return ">";
        case BinaryOperator::GreaterOrEquals:
            return ">=";
        case BinaryOperator::Like:
            return "LIKE";
        case BinaryOperator::NotLike:
            return "NOT LIKE";
        case BinaryOperator::ILike:
            return "ILIKE";
        case BinaryOperator::NotILike:
            return "NOT ILIKE";
        case BinaryOperator::Plus:
            return "+";
        case BinaryOperator::Minus:
            return "-";
        case BinaryOperator::Multiply:
            return "*";
        case BinaryOperator::Divide:
            return "/";
        case BinaryOperator::Modulo:
            return "%";
    }
    __builtin_unreachable();
}

}  // namespace granary::sql
