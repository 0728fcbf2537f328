// INTERVAL arithmetic, toStartOfInterval, now() and today() against references computed here
// with std::chrono's calendar (an independent implementation of the Gregorian calendar).
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>

#include "engine/common/exception.h"
#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

namespace chrono = std::chrono;

constexpr size_t kRows = 3000;

/// Times from 1970-01-05, the first Monday (weeks start in range), to 2099 (DateTime), their
/// days (Date) and milliseconds (DateTime64(3)).
Block timeBlock()
{
    std::mt19937_64 random(17);
    Block block;
    block.columns.push_back({"t", Column(TypeId::DateTime)});
    block.columns.push_back({"d", Column(TypeId::Date)});
    block.columns.push_back({"ms", Column(DataType::dateTime64(3))});
    for (size_t row = 0; row < kRows; ++row)
    {
        const auto seconds = static_cast<uint32_t>(345'600 + random() % 4'100'000'000u);
        block.columns[0].column.append(seconds);
        block.columns[1].column.append(static_cast<uint16_t>(seconds / 86400));
        block.columns[2].column.append(int64_t{seconds} * 1000 +
                                       static_cast<int64_t>(random() % 1000));
    }
    return block;
}

/// `days` moved by `months`, the day clamped to the target month's last day.
int64_t referenceAddMonths(int64_t days, int64_t months)
{
    const chrono::year_month_day date{chrono::sys_days{chrono::days{days}}};
    const chrono::year_month_day moved = date + chrono::months{months};
    const chrono::year_month_day_last last{moved.year(), chrono::month_day_last{moved.month()}};
    const chrono::year_month_day clamped = moved.ok() ? moved : chrono::year_month_day{last};
    return chrono::sys_days{clamped}.time_since_epoch().count();
}

TEST(Intervals, FixedUnitsAddTheirLength)
{
    const Block block = timeBlock();
    const Column later = evaluateText("t + INTERVAL 90 MINUTE", block);
    const Column earlier = evaluateText("t - INTERVAL 2 DAYS", block);
    const Column week = evaluateText("INTERVAL 1 WEEK + d", block);
    const Column ticks = evaluateText("ms - INTERVAL 1500 SECOND", block);
    const Column hours_of_date = evaluateText("d + INTERVAL 5 HOUR", block);
    EXPECT_EQ(ticks.view().precision, 3);
    EXPECT_EQ(hours_of_date.type(), TypeId::DateTime);
    for (size_t row = 0; row < kRows; ++row)
    {
        const uint32_t t = block.columns[0].column.valueAt<uint32_t>(row);
        const uint16_t d = block.columns[1].column.valueAt<uint16_t>(row);
        ASSERT_EQ(later.valueAt<uint32_t>(row), t + 5400);
        ASSERT_EQ(earlier.valueAt<uint32_t>(row), static_cast<uint32_t>(t - 2 * 86400));
        ASSERT_EQ(week.valueAt<uint16_t>(row), d + 7);
        ASSERT_EQ(ticks.valueAt<int64_t>(row),
                  block.columns[2].column.valueAt<int64_t>(row) - 1'500'000);
        ASSERT_EQ(hours_of_date.valueAt<uint32_t>(row), uint32_t{d} * 86400 + 5 * 3600);
    }
}

TEST(Intervals, CalendarUnitsMoveTheMonthAndClampTheDay)
{
    const Block block = timeBlock();
    const Column dates = evaluateText("d + INTERVAL 1 MONTH", block);
    const Column times = evaluateText("t - INTERVAL 5 QUARTER", block);
    const Column years = evaluateText("ms + INTERVAL 3 YEAR", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const uint32_t t = block.columns[0].column.valueAt<uint32_t>(row);
        const int64_t day = t / 86400;
        ASSERT_EQ(dates.valueAt<uint16_t>(row), referenceAddMonths(day, 1)) << row;
        ASSERT_EQ(times.valueAt<uint32_t>(row),
                  static_cast<uint32_t>(referenceAddMonths(day, -15) * 86400 + t % 86400))
            << row;
        const int64_t ms = block.columns[2].column.valueAt<int64_t>(row);
        ASSERT_EQ(years.valueAt<int64_t>(row),
                  referenceAddMonths(day, 36) * 86'400'000 + ms % 86'400'000)
            << row;
    }
}

TEST(Intervals, StartOfIntervalAlignsAsClickHouseDoes)
{
    const Block block = timeBlock();
    const Column quarter_hours = evaluateText("toStartOfInterval(t, INTERVAL 15 MINUTE)", block);
    const Column five_hours = evaluateText("toStartOfInterval(t, INTERVAL 5 HOUR)", block);
    const Column three_days = evaluateText("toStartOfInterval(d, INTERVAL 3 DAY)", block);
    const Column months = evaluateText("toStartOfInterval(ms, INTERVAL 1 MONTH)", block);
    const Column weeks = evaluateText("toStartOfInterval(t, INTERVAL 1 WEEK)", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const uint32_t t = block.columns[0].column.valueAt<uint32_t>(row);
        const uint16_t d = block.columns[1].column.valueAt<uint16_t>(row);
        const uint32_t midnight = t - t % 86400;
        ASSERT_EQ(quarter_hours.valueAt<uint32_t>(row), t - t % 900);
        ASSERT_EQ(five_hours.valueAt<uint32_t>(row), midnight + (t - midnight) / 18000 * 18000);
        ASSERT_EQ(three_days.valueAt<uint16_t>(row), d - d % 3);
        const chrono::year_month_day date{chrono::sys_days{chrono::days{t / 86400}}};
        ASSERT_EQ(months.valueAt<uint16_t>(row),
                  chrono::sys_days{date.year() / date.month() / 1}.time_since_epoch().count());
        const chrono::sys_days day{chrono::days{t / 86400}};
        const chrono::sys_days monday = day - (chrono::weekday{day} - chrono::Monday);
        ASSERT_EQ(weeks.valueAt<uint16_t>(row), monday.time_since_epoch().count());
    }
}

TEST(Intervals, NowAndTodayAreTheStatementsStart)
{
    const Block block = timeBlock();
    const auto before = static_cast<uint32_t>(std::time(nullptr));
    const Column now = evaluateText("now() - INTERVAL 1 HOUR", block);
    const Column today = evaluateText("today()", block);
    const auto after = static_cast<uint32_t>(std::time(nullptr));
    EXPECT_GE(now.valueAt<uint32_t>(0) + 3600, before);
    EXPECT_LE(now.valueAt<uint32_t>(0) + 3600, after);
    EXPECT_EQ(now.valueAt<uint32_t>(0), now.valueAt<uint32_t>(kRows - 1));
    EXPECT_GE(today.valueAt<uint16_t>(0), before / 86400);
    EXPECT_LE(today.valueAt<uint16_t>(0), after / 86400);
}

TEST(Intervals, ClearErrors)
{
    const Block block = timeBlock();
    for (const std::string text :
         {"INTERVAL 1 HOUR", "t * INTERVAL 1 HOUR", "toStartOfInterval(t, INTERVAL 2 MONTH)",
          "t + INTERVAL d DAY", "toStartOfInterval(t, 3600)", "now(1)", "t + INTERVAL 1.5 HOUR",
          "ms - INTERVAL 2000000000000 YEAR", "toStartOfInterval(t, INTERVAL 0 MINUTE)"})
    {
        EXPECT_THROW(compileText(text, block), Exception) << text;
    }
    EXPECT_THROW(compileText("t + INTERVAL 1 FORTNIGHT", block), Exception);
}

}  // namespace
}  // namespace granary::testing
