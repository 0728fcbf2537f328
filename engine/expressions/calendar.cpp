#include "engine/expressions/calendar.h"

#include <limits>

namespace granary
{
namespace
{

/// Days from 0000-03-01 to 1970-01-01: counting years from March puts the leap day last.
constexpr int64_t kEpochShift = 719468;
constexpr int64_t kDaysPer400Years = 146097;

bool isLeapYear(int64_t year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

unsigned daysInMonth(int64_t year, unsigned month)
{
    static constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeapYear(year) ? 29 : kDays[month - 1];
}

/// Reads exactly `digits` decimal digits at text[at].
std::optional<unsigned> readNumber(std::string_view text, size_t at, size_t digits)
{
    unsigned value = 0;
    for (size_t i = 0; i < digits; ++i)
    {
        const char c = text[at + i];
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    return value;
}

/// Days since the epoch of 'YYYY-MM-DD' at the start of `text` (which has at least 10 bytes).
std::optional<int64_t> parseDays(std::string_view text)
{
    const auto year = readNumber(text, 0, 4);
    const auto month = readNumber(text, 5, 2);
    const auto day = readNumber(text, 8, 2);
    if (!year || !month || !day || text[4] != '-' || text[7] != '-' || *month < 1 || *month > 12 ||
        *day < 1 || *day > daysInMonth(*year, *month))
    {
        return std::nullopt;
    }
    return daysFromCivil({*year, *month, *day});
}

}  // namespace

int64_t daysFromCivil(const CivilDate& date)
{
    const int64_t year = date.year - (date.month <= 2 ? 1 : 0);
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const int64_t year_of_era = year - era * 400;
    const int64_t month_from_march = (date.month + 9) % 12;
    const int64_t day_of_year = (153 * month_from_march + 2) / 5 + date.day - 1;
    const int64_t day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * kDaysPer400Years + day_of_era - kEpochShift;
}

CivilDate civilFromDays(int64_t days)
{
    const int64_t shifted = days + kEpochShift;
    const int64_t era =
        (shifted >= 0 ? shifted : shifted - kDaysPer400Years + 1) / kDaysPer400Years;
    const int64_t day_of_era = shifted - era * kDaysPer400Years;
    const int64_t year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const int64_t day_of_year =
        day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const int64_t month_from_march = (5 * day_of_year + 2) / 153;
    CivilDate date;
    date.day = static_cast<unsigned>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
    date.month =
        static_cast<unsigned>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
    date.year = year_of_era + era * 400 + (date.month <= 2 ? 1 : 0);
    return date;
}

std::optional<uint16_t> parseDateLiteral(std::string_view text)
{
    if (text.size() != 10)
    {
        return std::nullopt;
    }
    const std::optional<int64_t> days = parseDays(text);
    if (!days || *days < 0 || *days > std::numeric_limits<uint16_t>::max())
    {
        return std::nullopt;
    }
    return static_cast<uint16_t>(*days);
}

std::optional<uint32_t> parseDateTimeLiteral(std::string_view text)
{
    if (text.size() != 10 && text.size() != 19)
    {
        return std::nullopt;
    }
    const std::optional<int64_t> days = parseDays(text);
    if (!days)
    {
        return std::nullopt;
    }
    int64_t seconds = *days * kSecondsPerDay;
    if (text.size() == 19)
    {
        const auto hour = readNumber(text, 11, 2);
        const auto minute = readNumber(text, 14, 2);
        const auto second = readNumber(text, 17, 2);
        if ((text[10] != ' ' && text[10] != 'T') || text[13] != ':' || text[16] != ':' || !hour ||
            !minute || !second || *hour > 23 || *minute > 59 || *second > 59)
        {
            return std::nullopt;
        }
        seconds += *hour * 3600 + *minute * 60 + *second;
    }
    if (seconds < 0 || seconds > std::numeric_limits<uint32_t>::max())
    {
        return std::nullopt;
    }
    return static_cast<uint32_t>(seconds);
}

}  // namespace granary
