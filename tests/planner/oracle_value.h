#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/types.h"

namespace granary::oracle
{

/// Days since 1970-01-01.
struct DateValue
{
    int64_t days = 0;
    auto operator<=>(const DateValue&) const = default;
};

/// Seconds since 1970-01-01 00:00:00 UTC.
struct DateTimeValue
{
    int64_t seconds = 0;
    auto operator<=>(const DateTimeValue&) const = default;
};

/// One cell of the naive evaluator: signed and unsigned integers are kept apart because sums
/// and arithmetic wrap differently in each.
using Value = std::variant<int64_t, uint64_t, double, std::string, DateValue, DateTimeValue>;
using Row = std::vector<Value>;

bool isIntegerValue(const Value& value);  ///< int64_t or uint64_t.
bool isNumericValue(const Value& value);  ///< Anything but a string.
/// Integers, dates and times as their exact number (throws std::logic_error for others).
__int128 exactInteger(const Value& value);
long double numericValue(const Value& value);
bool isTrue(const Value& value);

/// SQL comparison: strings bytewise, numbers by exact value (signed with unsigned included),
/// a string against a Date/DateTime read as a date literal. Negative, zero or positive.
int compareSql(const Value& left, const Value& right);

/// A total order for std::map keys and sorting: by alternative, then by value.
struct TotalLess
{
    bool operator()(const Value& left, const Value& right) const;
    bool operator()(const Row& left, const Row& right) const;
};

/// Equal within a relative 1e-9 for floats, exactly otherwise; numbers of different
/// alternatives compare by value.
bool approximatelyEqual(const Value& left, const Value& right);

/// "YYYY-MM-DD" → days; throws std::invalid_argument when malformed.
DateValue parseDateText(std::string_view text);
/// "YYYY-MM-DD hh:mm:ss" (or a bare date) → seconds.
DateTimeValue parseDateTimeText(std::string_view text);
std::string formatDate(DateValue date);
std::string formatDateTime(DateTimeValue time);
/// Days since the epoch of a proleptic Gregorian date.
int64_t daysFromCivil(int64_t year, unsigned month, unsigned day);

/// For diagnostics: the value with its kind ("'abc'", "42u", "2013-07-01"...).
std::string describe(const Value& value);
std::string describe(const Row& row);

/// The value a table column of `type` holds for `value` (an integer, date, float or string
/// of the right kind), and back from an engine column.
Value valueOfType(TypeId type, const Value& value);
void appendToColumn(const Value& value, Column& column);
Value valueAt(const Column& column, size_t row);

}  // namespace granary::oracle
