#include "engine/expressions/calendar.h"

#include <limits>

namespace granary
{
namespace
{

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
    if (!year || !month || !day || text[4] != '-' || text[7] != '-')
    {
        return std::nullopt;
    }
    if (*year == 0 && *month == 0 && *day == 0)
    {
        return 0;  // ClickHouse's zero date is 1970-01-01, in literals as in loaded text.
    }
    if (*month < 1 || *month > 12 || *day < 1 || *day > daysInMonth(*year, *month))
    {
        return std::nullopt;
    }
    return daysFromCivil({*year, *month, *day});
}

}  // namespace

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
