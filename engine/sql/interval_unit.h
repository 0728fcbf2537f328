#pragma once

#include <optional>
#include <string_view>

namespace granary
{

/// ClickHouse's INTERVAL units. `INTERVAL n HOUR` parses as toIntervalHour(n).
enum class IntervalUnit
{
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
};

/// The unit of toIntervalSecond ... toIntervalYear by lower-case name; nullopt for others.
std::optional<IntervalUnit> intervalFunctionUnit(std::string_view lower_case_name);
/// The unit INTERVAL n UNIT names (SECOND ... YEAR, any case, plural too); nullopt for others.
std::optional<IntervalUnit> intervalUnitByKeyword(std::string_view word);
/// "Second" ... "Year": toInterval<name> is the function of the unit.
std::string_view intervalUnitName(IntervalUnit unit);

}  // namespace granary
