#include "engine/sql/interval_unit.h"

#include <array>
#include <utility>

#include "engine/common/ascii.h"

namespace granary
{
namespace
{

constexpr std::array<std::pair<std::string_view, IntervalUnit>, 8> kUnits = {{
    {"Second", IntervalUnit::Second},
    {"Minute", IntervalUnit::Minute},
    {"Hour", IntervalUnit::Hour},
    {"Day", IntervalUnit::Day},
    {"Week", IntervalUnit::Week},
    {"Month", IntervalUnit::Month},
    {"Quarter", IntervalUnit::Quarter},
    {"Year", IntervalUnit::Year},
}};

}  // namespace

std::optional<IntervalUnit> intervalFunctionUnit(std::string_view lower_case_name)
{
    for (const auto& [name, unit] : kUnits)
    {
        if (lower_case_name == "tointerval" + lowerCaseAscii(name))
        {
            return unit;
        }
    }
    return std::nullopt;
}

std::optional<IntervalUnit> intervalUnitByKeyword(std::string_view word)
{
    // HOURS as HOUR: a trailing S is accepted, as ClickHouse does.
    if (word.size() > 1 && (word.back() == 's' || word.back() == 'S'))
    {
        if (const std::optional<IntervalUnit> unit =
                intervalUnitByKeyword(word.substr(0, word.size() - 1)))
        {
            return unit;
        }
    }
    for (const auto& [name, unit] : kUnits)
    {
        if (equalsIgnoringCase(word, name))
        {
            return unit;
        }
    }
    return std::nullopt;
}

std::string_view intervalUnitName(IntervalUnit unit)
{
    return kUnits[static_cast<size_t>(unit)].first;
}

}  // namespace granary
