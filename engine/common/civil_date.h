#pragma once

#include <cstdint>

namespace granary
{

/// A proleptic Gregorian calendar date (UTC, no time zones): the one calendar of the engine,
/// on std::chrono's, which SQL literals, the text loaders and the output formats all use.
struct CivilDate
{
    int64_t year = 1970;
    unsigned month = 1;  ///< 1..12
    unsigned day = 1;    ///< 1..31
};

/// Days since 1970-01-01 of `date` (negative before it).
int64_t daysFromCivil(const CivilDate& date);
CivilDate civilFromDays(int64_t days);
/// Days of `month` (1..12) of `year`: 28 to 31.
unsigned daysInMonth(int64_t year, unsigned month);

}  // namespace granary
