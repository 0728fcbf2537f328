#include "tests/planner/naive_evaluator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "engine/sql/formatter.h"

namespace granary::oracle
{
namespace
{

using sql::Expression;
using sql::ExpressionPtr;

std::string lowerCase(std::string_view text)
{
    std::string lower(text);
    for (char& c : lower)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return lower;
}

/// The aggregate a call names, without its -If suffix ("sumif" is "sum"); empty for other calls.
/// sumWithOverflow is the oracle's sum, which wraps (queries whose sum overflows test sum's
/// error themselves).
std::string baseAggregate(const sql::FunctionCall& call)
{
    static const std::set<std::string> names = {"count", "sum", "avg", "min", "max"};
    std::string name = lowerCase(call.name);
    if (name == "sumwithoverflow")
    {
        name = "sum";
    }
    if (names.contains(name))
    {
        return name;
    }
    if (name.ends_with("if") && names.contains(name.substr(0, name.size() - 2)))
    {
        return name.substr(0, name.size() - 2);
    }
    return "";
}

bool isAggregateCall(const Expression& expression)
{
    const auto* call = expression.as<sql::FunctionCall>();
    return call && !baseAggregate(*call).empty();
}

bool containsAggregate(const Expression& expression)
{
    if (isAggregateCall(expression))
    {
        return true;
    }
    for (const ExpressionPtr& child : sql::children(expression))
    {
        if (containsAggregate(*child))
        {
            return true;
        }
    }
    return false;
}

Value boolean(bool value)
{
    return uint64_t{value};
}

/// + - * % over integers wrap modulo 2^64; the result is signed when either side is.
Value integerArithmetic(sql::BinaryOperator op, const Value& left, const Value& right)
{
    const bool is_signed =
        std::holds_alternative<int64_t>(left) || std::holds_alternative<int64_t>(right);
    const auto a = static_cast<uint64_t>(exactInteger(left));
    const auto b = static_cast<uint64_t>(exactInteger(right));
    uint64_t result = 0;
    switch (op)
    {
        case sql::BinaryOperator::Plus:
            result = a + b;
            break;
        case sql::BinaryOperator::Minus:
            result = a - b;
            break;
        case sql::BinaryOperator::Multiply:
            result = a * b;
            break;
        case sql::BinaryOperator::Modulo:
            if (b == 0)
            {
                throw std::logic_error("oracle: modulo by zero");
            }
            if (is_signed)
            {
                const __int128 remainder = exactInteger(left) % exactInteger(right);
                return static_cast<int64_t>(remainder);
            }
            result = a % b;
            break;
        default:
            throw std::logic_error("oracle: not an arithmetic operator");
    }
    if (is_signed)
    {
        return static_cast<int64_t>(result);
    }
    return result;
}

Value arithmetic(sql::BinaryOperator op, const Value& left, const Value& right)
{
    if (!isNumericValue(left) || !isNumericValue(right) ||
        std::holds_alternative<DateValue>(left) || std::holds_alternative<DateTimeValue>(left) ||
        std::holds_alternative<DateValue>(right) || std::holds_alternative<DateTimeValue>(right))
    {
        throw std::logic_error("oracle: arithmetic on " + describe(left) + ", " + describe(right));
    }
    if (op == sql::BinaryOperator::Divide || std::holds_alternative<double>(left) ||
        std::holds_alternative<double>(right))
    {
        const double l = static_cast<double>(numericValue(left));
        const double r = static_cast<double>(numericValue(right));
        switch (op)
        {
            case sql::BinaryOperator::Plus:
                return l + r;
            case sql::BinaryOperator::Minus:
                return l - r;
            case sql::BinaryOperator::Multiply:
                return l * r;
            case sql::BinaryOperator::Divide:
                return l / r;
            default:
                throw std::logic_error("oracle: float modulo");
        }
    }
    return integerArithmetic(op, left, right);
}

/// \1 in SQL's replacement becomes $1 in ECMAScript's; a literal $ is doubled.
std::string ecmaReplacement(std::string_view replacement)
{
    std::string converted;
    for (size_t i = 0; i < replacement.size(); ++i)
    {
        const char c = replacement[i];
        if (c == '\\' && i + 1 < replacement.size())
        {
            const char next = replacement[++i];
            if (next >= '0' && next <= '9')
            {
                converted += next == '0' ? std::string("$&") : std::string("$") + next;
            }
            else
            {
                converted += next == '$' ? "$$" : std::string(1, next);
            }
        }
        else
        {
            converted += c == '$' ? "$$" : std::string(1, c);
        }
    }
    return converted;
}

struct Group
{
    Row key;
    std::vector<uint32_t> rows;
};

class Evaluator
{
public:
    Evaluator(const RowTable& table, std::vector<ExpressionPtr> group_keys)
        : table_(table), group_keys_(std::move(group_keys))
    {
        for (size_t c = 0; c < table.names.size(); ++c)
        {
            column_index_[table.names[c]] = c;
        }
    }

    Value inRow(const Expression& expression, const Row& row) const
    {
        if (const auto* column = expression.as<sql::ColumnRef>())
        {
            const auto found = column_index_.find(column->name);
            if (found == column_index_.end())
            {
                throw std::logic_error("oracle: unknown column " + column->name);
            }
            return row[found->second];
        }
        if (isAggregateCall(expression))
        {
            throw std::logic_error("oracle: aggregate outside an aggregation");
        }
        return apply(expression, [&](const ExpressionPtr& child) { return inRow(*child, row); });
    }

    Value inGroup(const Expression& expression, const Group& group) const
    {
        for (size_t k = 0; k < group_keys_.size(); ++k)
        {
            if (*group_keys_[k] == expression)
            {
                return group.key[k];
            }
        }
        if (isAggregateCall(expression))
        {
            return aggregate(*expression.as<sql::FunctionCall>(), group);
        }
        if (expression.as<sql::ColumnRef>())
        {
            throw std::logic_error("oracle: column outside GROUP BY and aggregates");
        }
        return apply(expression,
                     [&](const ExpressionPtr& child) { return inGroup(*child, group); });
    }

private:
    std::vector<Value> argumentValues(const ExpressionPtr& argument, const Group& group) const
    {
        std::vector<Value> values;
        values.reserve(group.rows.size());
        for (const uint32_t row : group.rows)
        {
            values.push_back(inRow(*argument, table_.rows[row]));
        }
        return values;
    }

    /// fIf(args..., cond) and f(args) FILTER (WHERE cond) aggregate the rows where cond holds.
    Value aggregate(const sql::FunctionCall& call, const Group& group) const
    {
        sql::FunctionCall base = call;
        base.name = baseAggregate(call);
        base.filter = nullptr;
        Group kept{group.key, {}};
        std::vector<ExpressionPtr> conditions;
        if (lowerCase(call.name) == base.name + "if")
        {
            conditions.push_back(base.arguments.back());
            base.arguments.pop_back();
        }
        if (call.filter)
        {
            conditions.push_back(call.filter);
        }
        for (const uint32_t row : group.rows)
        {
            if (std::all_of(conditions.begin(), conditions.end(),
                            [&](const ExpressionPtr& condition)
                            { return isTrue(inRow(*condition, table_.rows[row])); }))
            {
                kept.rows.push_back(row);
            }
        }
        return plainAggregate(base, kept);
    }

    Value plainAggregate(const sql::FunctionCall& call, const Group& group) const
    {
        const std::string name = call.name;
        if (name == "count" && call.arguments.empty())
        {
            return uint64_t{group.rows.size()};
        }
        if (call.arguments.size() != 1)
        {
            throw std::logic_error("oracle: aggregate with " +
                                   std::to_string(call.arguments.size()) + " arguments");
        }
        if (name == "count")
        {
            if (!call.distinct)
            {
                return uint64_t{group.rows.size()};
            }
            const std::vector<Value> values = argumentValues(call.arguments[0], group);
            return uint64_t{std::set<Value, TotalLess>(values.begin(), values.end()).size()};
        }
        if (call.distinct)
        {
            throw std::logic_error("oracle: DISTINCT only in count");
        }
        const std::vector<Value> values = argumentValues(call.arguments[0], group);
        if (name == "sum")
        {
            return sum(values);
        }
        if (name == "avg")
        {
            return average(values);
        }
        if (values.empty())
        {
            throw std::logic_error("oracle: min/max of no rows");
        }
        const bool is_min = name == "min";
        Value best = values.front();
        for (const Value& value : values)
        {
            const int order = compareSql(value, best);
            if (is_min ? order < 0 : order > 0)
            {
                best = value;
            }
        }
        return best;
    }

    /// Integers wrap modulo 2^64 (Int64 for signed arguments, UInt64 for unsigned).
    static Value sum(const std::vector<Value>& values)
    {
        if (!values.empty() && std::holds_alternative<double>(values.front()))
        {
            double total = 0;
            for (const Value& value : values)
            {
                total += std::get<double>(value);
            }
            return total;
        }
        uint64_t total = 0;
        bool is_signed = true;
        for (const Value& value : values)
        {
            if (!isIntegerValue(value))
            {
                throw std::logic_error("oracle: sum of " + describe(value));
            }
            is_signed = std::holds_alternative<int64_t>(value);
            total += static_cast<uint64_t>(exactInteger(value));
        }
        if (is_signed)
        {
            return static_cast<int64_t>(total);
        }
        return total;
    }

    static Value average(const std::vector<Value>& values)
    {
        long double total = 0;
        __int128 integer_total = 0;
        bool integers = true;
        for (const Value& value : values)
        {
            if (isIntegerValue(value))
            {
                integer_total += exactInteger(value);
            }
            else
            {
                integers = false;
                total += numericValue(value);
            }
        }
        if (integers)
        {
            total = static_cast<long double>(integer_total);
        }
        return static_cast<double>(total / static_cast<long double>(values.size()));
    }

    template <typename Evaluate>
    Value apply(const Expression& expression, Evaluate&& evaluate) const
    {
        if (const auto* literal = expression.as<sql::Literal>())
        {
            return std::visit(
                [](const auto& value) -> Value
                {
                    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, sql::NullValue>)
                    {
                        throw std::logic_error("oracle: NULL is not modelled");
                    }
                    else
                    {
                        return value;
                    }
                },
                literal->value);
        }
        if (const auto* unary = expression.as<sql::UnaryOperation>())
        {
            const Value operand = evaluate(unary->operand);
            if (unary->op == sql::UnaryOperator::Not)
            {
                return boolean(!isTrue(operand));
            }
            if (const auto* value = std::get_if<double>(&operand))
            {
                return -*value;
            }
            return static_cast<int64_t>(0 - static_cast<uint64_t>(exactInteger(operand)));
        }
        if (const auto* binary = expression.as<sql::BinaryOperation>())
        {
            return binaryOperation(*binary, evaluate);
        }
        if (const auto* in = expression.as<sql::InList>())
        {
            const Value value = evaluate(in->value);
            bool found = false;
            for (const ExpressionPtr& item : in->list)
            {
                found = found || compareSql(value, evaluate(item)) == 0;
            }
            return boolean(found != in->negated);
        }
        if (const auto* case_expression = expression.as<sql::CaseExpression>())
        {
            for (const sql::WhenClause& branch : case_expression->branches)
            {
                const bool taken = case_expression->operand
                                       ? compareSql(evaluate(case_expression->operand),
                                                    evaluate(branch.condition)) == 0
                                       : isTrue(evaluate(branch.condition));
                if (taken)
                {
                    return evaluate(branch.result);
                }
            }
            if (!case_expression->else_result)
            {
                throw std::logic_error("oracle: CASE without ELSE fell through");
            }
            return evaluate(case_expression->else_result);
        }
        if (const auto* extract = expression.as<sql::Extract>())
        {
            return extractPart(extract->part, evaluate(extract->source));
        }
        if (const auto* call = expression.as<sql::FunctionCall>())
        {
            std::vector<Value> arguments;
            for (const ExpressionPtr& argument : call->arguments)
            {
                arguments.push_back(evaluate(argument));
            }
            return function(lowerCase(call->name), arguments);
        }
        throw std::logic_error("oracle: cannot evaluate " + sql::formatExpression(expression));
    }

    template <typename Evaluate>
    Value binaryOperation(const sql::BinaryOperation& binary, Evaluate&& evaluate) const
    {
        using Op = sql::BinaryOperator;
        const Value left = evaluate(binary.left);
        const Value right = evaluate(binary.right);
        switch (binary.op)
        {
            case Op::Or:
                return boolean(isTrue(left) || isTrue(right));
            case Op::And:
                return boolean(isTrue(left) && isTrue(right));
            case Op::Equals:
                return boolean(compareSql(left, right) == 0);
            case Op::NotEquals:
                return boolean(compareSql(left, right) != 0);
            case Op::Less:
                return boolean(compareSql(left, right) < 0);
            case Op::LessOrEquals:
                return boolean(compareSql(left, right) <= 0);
            case Op::Greater:
                return boolean(compareSql(left, right) > 0);
            case Op::GreaterOrEquals:
                return boolean(compareSql(left, right) >= 0);
            case Op::Like:
            case Op::NotLike:
            case Op::ILike:
            case Op::NotILike:
            {
                const bool insensitive = binary.op == Op::ILike || binary.op == Op::NotILike;
                const bool negated = binary.op == Op::NotLike || binary.op == Op::NotILike;
                const bool matches = likeMatches(std::get<std::string>(left),
                                                 std::get<std::string>(right), insensitive);
                return boolean(matches != negated);
            }
            default:
                return arithmetic(binary.op, left, right);
        }
    }

    static Value extractPart(sql::DatePart part, const Value& source)
    {
        const int64_t seconds = std::get<DateTimeValue>(source).seconds;
        switch (part)
        {
            case sql::DatePart::Second:
                return uint64_t(seconds % 60);
            case sql::DatePart::Minute:
                return uint64_t(seconds / 60 % 60);
            case sql::DatePart::Hour:
                return uint64_t(seconds / 3600 % 24);
            default:
                throw std::logic_error("oracle: extract of this part");
        }
    }

    Value function(const std::string& name, const std::vector<Value>& arguments) const
    {
        if (name == "length" && arguments.size() == 1)
        {
            return uint64_t{std::get<std::string>(arguments[0]).size()};
        }
        if ((name == "regexp_replace" || name == "replaceregexpall") && arguments.size() == 3)
        {
            const std::string& pattern = std::get<std::string>(arguments[1]);
            auto compiled = regexes_.find(pattern);
            if (compiled == regexes_.end())
            {
                compiled = regexes_.emplace(pattern, std::regex(pattern)).first;
            }
            return std::regex_replace(std::get<std::string>(arguments[0]), compiled->second,
                                      ecmaReplacement(std::get<std::string>(arguments[2])));
        }
        if (name == "date_trunc" && arguments.size() == 2)
        {
            static const std::map<std::string, int64_t> units = {
                {"second", 1}, {"minute", 60}, {"hour", 3600}, {"day", 86400}};
            const int64_t unit = units.at(lowerCase(std::get<std::string>(arguments[0])));
            const int64_t seconds = std::get<DateTimeValue>(arguments[1]).seconds;
            return DateTimeValue{seconds - seconds % unit};
        }
        throw std::logic_error("oracle: unknown function " + name);
    }

    const RowTable& table_;
    std::vector<ExpressionPtr> group_keys_;
    std::map<std::string, size_t, std::less<>> column_index_;
    mutable std::map<std::string, std::regex> regexes_;
};

struct Item
{
    ExpressionPtr expression;
    std::string name;
};

std::vector<Item> expandItems(const sql::SelectStatement& select, const RowTable& table)
{
    std::vector<Item> items;
    for (const sql::SelectItem& item : select.items)
    {
        if (item.expression->as<sql::Asterisk>())
        {
            for (const std::string& name : table.names)
            {
                items.push_back({sql::makeExpression(sql::ColumnRef{name}), name});
            }
            continue;
        }
        std::string name = item.alias ? *item.alias : sql::formatExpression(*item.expression);
        if (const auto* column = item.expression->as<sql::ColumnRef>(); column && !item.alias)
        {
            name = column->name;
        }
        items.push_back({item.expression, std::move(name)});
    }
    return items;
}

/// GROUP BY / ORDER BY keys: an unsigned integer is a position (1-based), a bare name that
/// is an alias stands for its item.
ExpressionPtr resolveKey(const ExpressionPtr& key, const sql::SelectStatement& select,
                         const std::vector<Item>& items)
{
    if (const auto* literal = key->as<sql::Literal>())
    {
        if (const auto* position = std::get_if<uint64_t>(&literal->value))
        {
            if (*position < 1 || *position > items.size())
            {
                throw std::logic_error("oracle: position out of range");
            }
            return items[*position - 1].expression;
        }
    }
    return sql::transformBottomUp(key,
                                  [&](const ExpressionPtr& node) -> ExpressionPtr
                                  {
                                      const auto* column = node->as<sql::ColumnRef>();
                                      if (!column)
                                      {
                                          return node;
                                      }
                                      for (const sql::SelectItem& item : select.items)
                                      {
                                          if (item.alias && *item.alias == column->name)
                                          {
                                              return item.expression;
                                          }
                                      }
                                      return node;
                                  });
}

int orderCompare(const Value& left, const Value& right)
{
    const bool left_nan =
        std::holds_alternative<double>(left) && std::isnan(std::get<double>(left));
    const bool right_nan =
        std::holds_alternative<double>(right) && std::isnan(std::get<double>(right));
    if (left_nan || right_nan)
    {
        return left_nan == right_nan ? 0 : (left_nan ? 1 : -1);
    }
    return compareSql(left, right);
}

}  // namespace

size_t RowTable::columnIndex(std::string_view name) const
{
    for (size_t c = 0; c < names.size(); ++c)
    {
        if (names[c] == name)
        {
            return c;
        }
    }
    throw std::out_of_range("no column " + std::string(name));
}

bool likeMatches(std::string_view text, std::string_view pattern, bool case_insensitive)
{
    enum class Kind
    {
        Byte,
        AnyByte,
        AnyRun,
    };
    struct Token
    {
        Kind kind;
        char byte;
    };
    auto fold = [&](char c)
    { return case_insensitive && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    std::vector<Token> tokens;
    for (size_t i = 0; i < pattern.size(); ++i)
    {
        if (pattern[i] == '\\' && i + 1 < pattern.size())
        {
            tokens.push_back({Kind::Byte, fold(pattern[++i])});
        }
        else if (pattern[i] == '%')
        {
            tokens.push_back({Kind::AnyRun, 0});
        }
        else if (pattern[i] == '_')
        {
            tokens.push_back({Kind::AnyByte, 0});
        }
        else
        {
            tokens.push_back({Kind::Byte, fold(pattern[i])});
        }
    }
    // Greedy walk; on a mismatch, the last % takes one more byte and the walk resumes.
    size_t t = 0;
    size_t p = 0;
    size_t star_token = SIZE_MAX;
    size_t star_text = 0;
    while (t < text.size())
    {
        if (p < tokens.size() && tokens[p].kind == Kind::AnyRun)
        {
            star_token = p++;
            star_text = t;
        }
        else if (p < tokens.size() &&
                 (tokens[p].kind == Kind::AnyByte || tokens[p].byte == fold(text[t])))
        {
            ++p;
            ++t;
        }
        else if (star_token != SIZE_MAX)
        {
            p = star_token + 1;
            t = ++star_text;
        }
        else
        {
            return false;
        }
    }
    while (p < tokens.size() && tokens[p].kind == Kind::AnyRun)
    {
        ++p;
    }
    return p == tokens.size();
}

NaiveResult evaluateNaively(const sql::SelectStatement& select, const RowTable& table)
{
    const std::vector<Item> items = expandItems(select, table);
    NaiveResult result;
    result.offset = select.offset;
    result.limit = select.limit;
    for (const Item& item : items)
    {
        result.names.push_back(item.name);
    }
    std::vector<ExpressionPtr> order_keys;
    for (const sql::OrderByItem& item : select.order_by)
    {
        order_keys.push_back(resolveKey(item.expression, select, items));
        result.descending.push_back(item.descending);
    }

    std::vector<ExpressionPtr> group_keys;
    for (const ExpressionPtr& key : select.group_by)
    {
        group_keys.push_back(resolveKey(key, select, items));
    }
    bool aggregates = !group_keys.empty();
    for (const Item& item : items)
    {
        aggregates = aggregates || containsAggregate(*item.expression);
    }
    for (const ExpressionPtr& key : order_keys)
    {
        aggregates = aggregates || containsAggregate(*key);
    }
    aggregates = aggregates || (select.having && containsAggregate(*select.having));

    const Evaluator evaluator(table, group_keys);
    std::vector<uint32_t> passing;
    for (uint32_t row = 0; row < table.rows.size(); ++row)
    {
        if (!select.where || isTrue(evaluator.inRow(*select.where, table.rows[row])))
        {
            passing.push_back(row);
        }
    }

    if (!aggregates)
    {
        for (const uint32_t row : passing)
        {
            KeyedRow keyed;
            for (const Item& item : items)
            {
                keyed.values.push_back(evaluator.inRow(*item.expression, table.rows[row]));
            }
            for (const ExpressionPtr& key : order_keys)
            {
                keyed.sort_key.push_back(evaluator.inRow(*key, table.rows[row]));
            }
            result.rows.push_back(std::move(keyed));
        }
    }
    else
    {
        std::map<Row, std::vector<uint32_t>, TotalLess> groups;
        if (group_keys.empty())
        {
            groups[Row{}] = passing;
        }
        for (const uint32_t row : group_keys.empty() ? std::vector<uint32_t>{} : passing)
        {
            Row key;
            for (const ExpressionPtr& expression : group_keys)
            {
                key.push_back(evaluator.inRow(*expression, table.rows[row]));
            }
            groups[std::move(key)].push_back(row);
        }
        const ExpressionPtr having =
            select.having ? resolveKey(select.having, select, items) : nullptr;
        for (auto& [key, rows] : groups)
        {
            const Group group{key, std::move(rows)};
            if (having && !isTrue(evaluator.inGroup(*having, group)))
            {
                continue;
            }
            KeyedRow keyed;
            for (const Item& item : items)
            {
                keyed.values.push_back(evaluator.inGroup(*item.expression, group));
            }
            for (const ExpressionPtr& key_expression : order_keys)
            {
                keyed.sort_key.push_back(evaluator.inGroup(*key_expression, group));
            }
            result.rows.push_back(std::move(keyed));
        }
    }

    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [&](const KeyedRow& left, const KeyedRow& right)
                     {
                         for (size_t k = 0; k < left.sort_key.size(); ++k)
                         {
                             const int order = orderCompare(left.sort_key[k], right.sort_key[k]);
                             if (order != 0)
                             {
                                 return result.descending[k] ? order > 0 : order < 0;
                             }
                         }
                         return false;
                     });
    return result;
}

}  // namespace granary::oracle
