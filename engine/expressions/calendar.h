#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace granary
{

/// Proleptic Gregorian calendar arithmetic on days since 1970-01-01 (UTC, no time zones).
struct CivilDate
{
    int64_t year = 1970;
    unsigned month = 1;  ///< 1..12
    unsigned day = 1;    ///< 1..31
};

constexpr uint32_t kSecondsPerDay = 86400;

int64_t daysFromCivil(const CivilDate& date);
CivilDate civilFromDays(int64_t days);

/// 'YYYY-MM-DD' as a Date (days since the epoch, 1970-01-01..2149-06-06); nullopt when
/// malformed, not a real day, or out of range.
std::optional<uint16_t> parseDateLiteral(std::string_view text);

/// 'YYYY-MM-DD hh:mm:ss' or 'YYYY-MM-DD' (midnight) as a DateTime (seconds since the epoch,
/// UTC, up to 2106-02-07 06:28:15); nullopt when malformed or out of range.
std::optional<uint32_t> parseDateTimeLiteral(std::string_view text);

}  // namespace granary
