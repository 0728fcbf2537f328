#include "engine/common/civil_date.h"

#include <chrono>

namespace granary
{

int64_t daysFromCivil(const CivilDate& date)
{
    const std::chrono::year_month_day civil{std::chrono::year(static_cast<int>(date.year)),
                                            std::chrono::month(date.month),
                                            std::chrono::day(date.day)};
    return std::chrono::sys_days(civil).time_since_epoch().count();
}

CivilDate civilFromDays(int64_t days)
{
    const std::chrono::year_month_day civil{std::chrono::sys_days(std::chrono::days(days))};
    return {static_cast<int>(civil.year()), static_cast<unsigned>(civil.month()),
            static_cast<unsigned>(civil.day())};
}

unsigned daysInMonth(int64_t year, unsigned month)
{
    const std::chrono::year_month_day_last last{std::chrono::year(static_cast<int>(year)) /
                                                std::chrono::month(month) / std::chrono::last};
    return static_cast<unsigned>(last.day());
}

}  // namespace granary
