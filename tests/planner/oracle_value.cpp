#include "tests/planner/oracle_value.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace granary::oracle
{
namespace
{

struct CivilDate
{
    int64_t year;
    unsigned month;
    unsigned day;
};

/// Inverse of daysFromCivil, by counting whole years and then months (slow but plain).
CivilDate civilFromDays(int64_t days)
{
    auto is_leap = [](int64_t year)
    { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; };
    int64_t year = 1970;
    while (days < 0)
    {
        --year;
        days += is_leap(year) ? 366 : 365;
    }
    while (days >= (is_leap(year) ? 366 : 365))
    {
        days -= is_leap(year) ? 366 : 365;
        ++year;
    }
    const unsigned lengths[] = {31, is_leap(year) ? 29u : 28u, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                31};
    unsigned month = 0;
    while (days >= lengths[month])
    {
        days -= lengths[month];
        ++month;
    }
    return {year, month + 1, static_cast<unsigned>(days) + 1};
}

unsigned parseDigits(std::string_view text, size_t at, size_t count)
{
    unsigned value = 0;
    for (size_t i = at; i < at + count; ++i)
    {
        if (i >= text.size() || text[i] < '0' || text[i] > '9')
        {
            throw std::invalid_argument("not a date: " + std::string(text));
        }
        value = value * 10 + static_cast<unsigned>(text[i] - '0');
    }
    return value;
}

int kindRank(const Value& value)
{
    return static_cast<int>(value.index());
}

template <typename T>
int threeWay(const T& left, const T& right)
{
    return left < right ? -1 : (right < left ? 1 : 0);
}

}  // namespace

int64_t daysFromCivil(int64_t year, unsigned month, unsigned day)
{
    // Days before March 1 of year 0, counted in 400-year eras of 146097 days.
    const int64_t y = month <= 2 ? year - 1 : year;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t year_of_era = y - era * 400;
    const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const int64_t day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

DateValue parseDateText(std::string_view text)
{
    if (text.size() < 10 || text[4] != '-' || text[7] != '-')
    {
        throw std::invalid_argument("not a date: " + std::string(text));
    }
    const unsigned month = parseDigits(text, 5, 2);
    const unsigned day = parseDigits(text, 8, 2);
    if (month < 1 || month > 12 || day < 1 || day > 31)
    {
        throw std::invalid_argument("not a date: " + std::string(text));
    }
    return {daysFromCivil(parseDigits(text, 0, 4), month, day)};
}

DateTimeValue parseDateTimeText(std::string_view text)
{
    const DateValue date = parseDateText(text.substr(0, 10));
    int64_t seconds = date.days * 86400;
    if (text.size() > 10)
    {
        if (text.size() != 19 || text[10] != ' ' || text[13] != ':' || text[16] != ':')
        {
            throw std::invalid_argument("not a date and time: " + std::string(text));
        }
        seconds += parseDigits(text, 11, 2) * 3600 + parseDigits(text, 14, 2) * 60 +
                   parseDigits(text, 17, 2);
    }
    return {seconds};
}

std::string formatDate(DateValue date)
{
    const CivilDate civil = civilFromDays(date.days);
    char text[32];
    std::snprintf(text, sizeof(text), "%04lld-%02u-%02u", static_cast<long long>(civil.year),
                  civil.month, civil.day);
    return text;
}

std::string formatDateTime(DateTimeValue time)
{
    const int64_t days = time.seconds >= 0 ? time.seconds / 86400 : (time.seconds - 86399) / 86400;
    const int64_t second_of_day = time.seconds - days * 86400;
    char text[16];
    std::snprintf(text, sizeof(text), " %02d:%02d:%02d", static_cast<int>(second_of_day / 3600),
                  static_cast<int>(second_of_day / 60 % 60), static_cast<int>(second_of_day % 60));
    return formatDate({days}) + text;
}

bool isIntegerValue(const Value& value)
{
    return std::holds_alternative<int64_t>(value) || std::holds_alternative<uint64_t>(value);
}

bool isNumericValue(const Value& value)
{
    return !std::holds_alternative<std::string>(value);
}

__int128 exactInteger(const Value& value)
{
    if (const auto* v = std::get_if<int64_t>(&value))
    {
        return *v;
    }
    if (const auto* v = std::get_if<uint64_t>(&value))
    {
        return *v;
    }
    if (const auto* v = std::get_if<DateValue>(&value))
    {
        return v->days;
    }
    if (const auto* v = std::get_if<DateTimeValue>(&value))
    {
        return v->seconds;
    }
    throw std::logic_error("oracle: not an integer: " + describe(value));
}

long double numericValue(const Value& value)
{
    if (const auto* v = std::get_if<double>(&value))
    {
        return *v;
    }
    return static_cast<long double>(exactInteger(value));
}

bool isTrue(const Value& value)
{
    return numericValue(value) != 0;
}

int compareSql(const Value& left, const Value& right)
{
    const auto* left_text = std::get_if<std::string>(&left);
    const auto* right_text = std::get_if<std::string>(&right);
    if (left_text && right_text)
    {
        return threeWay(*left_text, *right_text);
    }
    if (left_text || right_text)
    {
        const Value& other = left_text ? right : left;
        const std::string& text = left_text ? *left_text : *right_text;
        Value converted;
        if (std::holds_alternative<DateValue>(other))
        {
            converted = parseDateText(text);
        }
        else if (std::holds_alternative<DateTimeValue>(other))
        {
            converted = parseDateTimeText(text);
        }
        else
        {
            throw std::logic_error("oracle: string compared with a number");
        }
        return left_text ? compareSql(converted, right) : compareSql(left, converted);
    }
    if (std::holds_alternative<double>(left) || std::holds_alternative<double>(right))
    {
        return threeWay(numericValue(left), numericValue(right));
    }
    return threeWay(exactInteger(left), exactInteger(right));
}

bool TotalLess::operator()(const Value& left, const Value& right) const
{
    if (kindRank(left) != kindRank(right))
    {
        return kindRank(left) < kindRank(right);
    }
    if (const auto* l = std::get_if<double>(&left))
    {
        const double r = std::get<double>(right);
        // NaN sorts after every number and equals itself, so maps stay consistent.
        if (std::isnan(*l) || std::isnan(r))
        {
            return !std::isnan(*l) && std::isnan(r);
        }
        return *l < r;
    }
    return compareSql(left, right) < 0;
}

bool TotalLess::operator()(const Row& left, const Row& right) const
{
    return std::lexicographical_compare(left.begin(), left.end(), right.begin(), right.end(),
                                        *this);
}

bool approximatelyEqual(const Value& left, const Value& right)
{
    if (std::holds_alternative<std::string>(left) || std::holds_alternative<std::string>(right))
    {
        return left == right;
    }
    if (std::holds_alternative<double>(left) || std::holds_alternative<double>(right))
    {
        const long double l = numericValue(left);
        const long double r = numericValue(right);
        if (std::isnan(l) || std::isnan(r))
        {
            return std::isnan(l) && std::isnan(r);
        }
        if (l == r)
        {
            return true;
        }
        return std::fabs(l - r) <= 1e-9L * std::max(std::fabs(l), std::fabs(r));
    }
    return exactInteger(left) == exactInteger(right);
}

std::string describe(const Value& value)
{
    struct Describer
    {
        std::string operator()(int64_t v) const { return std::to_string(v); }
        std::string operator()(uint64_t v) const { return std::to_string(v) + "u"; }
        std::string operator()(double v) const
        {
            char text[40];
            std::snprintf(text, sizeof(text), "%.17g", v);
            return text;
        }
        std::string operator()(const std::string& v) const { return "'" + v + "'"; }
        std::string operator()(DateValue v) const { return formatDate(v); }
        std::string operator()(DateTimeValue v) const { return formatDateTime(v); }
    };
    return std::visit(Describer{}, value);
}

std::string describe(const Row& row)
{
    std::string text = "(";
    for (size_t i = 0; i < row.size(); ++i)
    {
        text += (i ? ", " : "") + describe(row[i]);
    }
    return text + ")";
}

Value valueOfType(TypeId type, const Value& value)
{
    if (isString(type))
    {
        return std::get<std::string>(value);
    }
    if (type == TypeId::Date)
    {
        return std::holds_alternative<DateValue>(value)
                   ? value
                   : Value(DateValue{static_cast<int64_t>(exactInteger(value))});
    }
    if (type == TypeId::DateTime)
    {
        return std::holds_alternative<DateTimeValue>(value)
                   ? value
                   : Value(DateTimeValue{static_cast<int64_t>(exactInteger(value))});
    }
    if (isFloat(type))
    {
        return static_cast<double>(numericValue(value));
    }
    if (isSignedInteger(type))
    {
        return static_cast<int64_t>(exactInteger(value));
    }
    return static_cast<uint64_t>(exactInteger(value));
}

void appendToColumn(const Value& value, Column& column)
{
    const TypeId type = column.type();
    if (isString(type))
    {
        column.appendString(std::get<std::string>(value));
        return;
    }
    dispatchFixedType(type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          if constexpr (std::is_floating_point_v<T>)
                          {
                              column.append(static_cast<T>(numericValue(value)));
                          }
                          else
                          {
                              column.append(static_cast<T>(exactInteger(value)));
                          }
                      });
}

Value valueAt(const Column& column, size_t row)
{
    const TypeId type = column.type();
    if (isString(type))
    {
        return std::string(column.stringAt(row));
    }
    return dispatchFixedType(type,
                             [&]<typename T>(TypeTag<T>) -> Value
                             {
                                 const T raw = column.valueAt<T>(row);
                                 if constexpr (std::is_floating_point_v<T>)
                                 {
                                     return static_cast<double>(raw);
                                 }
                                 else
                                 {
                                     return valueOfType(type, Value(static_cast<int64_t>(raw)));
                                 }
                             });
}

}  // namespace granary::oracle
