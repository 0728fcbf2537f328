#pragma once

#include <optional>
#include <string_view>

#include "engine/expressions/expression_node.h"
#include "engine/sql/expression.h"

namespace granary
{

/// Calendar functions of a Date or DateTime (UTC). Results: Year UInt16; Quarter, Month,
/// DayOfMonth, DayOfWeek (Monday = 1), IsoWeek, Hour, Minute, Second UInt8; ToDate and the
/// StartOf{Week (a Monday), Month, Quarter, Year} Date; ToDateTime and StartOf{Minute, Hour,
/// Day} DateTime. Hour, Minute, Second, StartOfMinute and StartOfHour take DateTime only.
enum class DateFunction
{
    Year,
    Quarter,
    Month,
    DayOfMonth,
    DayOfWeek,
    IsoWeek,
    Hour,
    Minute,
    Second,
    ToDate,
    ToDateTime,
    StartOfMinute,
    StartOfHour,
    StartOfDay,
    StartOfWeek,
    StartOfMonth,
    StartOfQuarter,
    StartOfYear,
};

/// toYear, toMonth, toStartOfHour, toMonday... by lower-case name; nullopt for other names.
std::optional<DateFunction> dateFunctionByName(std::string_view lower_case_name);

/// What extract(part FROM t) computes (WEEK is the ISO week, as in ClickHouse).
DateFunction dateFunctionForPart(sql::DatePart part);

/// The result type for an argument type; nullopt when the function does not take it.
std::optional<TypeId> dateFunctionResultType(DateFunction function, TypeId argument);

/// The function over `argument` (whose type dateFunctionResultType accepts).
NodePtr makeDateFunction(DateFunction function, NodePtr argument);

/// DATE_TRUNC(unit, t) for a unit name (second, minute, hour, day, week, month, quarter, year,
/// any case): the same type as t (a DateTime stays a DateTime), or nullopt with an unknown unit
/// or a unit finer than a day on a Date.
std::optional<NodePtr> makeDateTrunc(std::string_view unit, NodePtr argument);

}  // namespace granary
