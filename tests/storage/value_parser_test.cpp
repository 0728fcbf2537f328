#include "engine/storage/value_parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace granary
{
namespace
{

TEST(ValueParser, IntegersAreRangeChecked)
{
    uint8_t small = 0;
    EXPECT_EQ(parseInteger("255", small), ParseStatus::kOk);
    EXPECT_EQ(small, 255);
    EXPECT_EQ(parseInteger("300", small), ParseStatus::kOutOfRange);
    EXPECT_EQ(parseInteger("-1", small), ParseStatus::kOutOfRange);
    EXPECT_EQ(parseInteger("+7", small), ParseStatus::kOk);
    EXPECT_EQ(small, 7);
    EXPECT_EQ(parseInteger("", small), ParseStatus::kMalformed);
    EXPECT_EQ(parseInteger("1x", small), ParseStatus::kMalformed);
    EXPECT_EQ(parseInteger(" 1", small), ParseStatus::kMalformed);
    int64_t wide = 0;
    EXPECT_EQ(parseInteger("-9223372036854775808", wide), ParseStatus::kOk);
    EXPECT_EQ(wide, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(parseInteger("9223372036854775808", wide), ParseStatus::kOutOfRange);
    uint64_t unsigned_wide = 0;
    EXPECT_EQ(parseInteger("18446744073709551615", unsigned_wide), ParseStatus::kOk);
    EXPECT_EQ(unsigned_wide, std::numeric_limits<uint64_t>::max());
}

TEST(ValueParser, Floats)
{
    double value = 0;
    EXPECT_EQ(parseFloat("-1.5e3", value), ParseStatus::kOk);
    EXPECT_EQ(value, -1500.0);
    EXPECT_EQ(parseFloat("inf", value), ParseStatus::kOk);
    EXPECT_TRUE(std::isinf(value));
    EXPECT_EQ(parseFloat("nan", value), ParseStatus::kOk);
    EXPECT_TRUE(std::isnan(value));
    EXPECT_EQ(parseFloat("1.2.3", value), ParseStatus::kMalformed);
}

TEST(ValueParser, EveryDateAgreesWithTheStandardCalendar)
{
    for (uint32_t days = 0; days <= 65535; ++days)
    {
        const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
        char text[16];
        std::snprintf(text, sizeof(text), "%04d-%02u-%02u", static_cast<int>(date.year()),
                      static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
        uint16_t parsed = 0;
        ASSERT_EQ(parseDate(text, parsed), ParseStatus::kOk) << text;
        ASSERT_EQ(parsed, days) << text;
    }
    uint16_t parsed = 0;
    EXPECT_EQ(parseDate("2149-06-07", parsed), ParseStatus::kOutOfRange);
    EXPECT_EQ(parseDate("1969-12-31", parsed), ParseStatus::kOutOfRange);
    EXPECT_EQ(parseDate("2021-02-29", parsed), ParseStatus::kMalformed);
    EXPECT_EQ(parseDate("2020-02-29", parsed), ParseStatus::kOk);
    EXPECT_EQ(parseDate("2020-1-01", parsed), ParseStatus::kMalformed);
    EXPECT_EQ(parseDate("0000-00-00", parsed), ParseStatus::kOk);
    EXPECT_EQ(parsed, 0);
}

TEST(ValueParser, DateTimes)
{
    uint32_t seconds = 0;
    EXPECT_EQ(parseDateTime("2013-07-15 12:34:56", seconds), ParseStatus::kOk);
    const auto expected = std::chrono::sys_days{std::chrono::year{2013} / 7 / 15} +
                          std::chrono::hours{12} + std::chrono::minutes{34} +
                          std::chrono::seconds{56};
    EXPECT_EQ(seconds, expected.time_since_epoch().count());
    EXPECT_EQ(parseDateTime("2106-02-07 06:28:15", seconds), ParseStatus::kOk);
    EXPECT_EQ(seconds, std::numeric_limits<uint32_t>::max());
    EXPECT_EQ(parseDateTime("2106-02-07 06:28:16", seconds), ParseStatus::kOutOfRange);
    EXPECT_EQ(parseDateTime("2013-07-15", seconds), ParseStatus::kOk);
    EXPECT_EQ(seconds % 86400, 0u);
    EXPECT_EQ(parseDateTime("2013-07-15 24:00:00", seconds), ParseStatus::kMalformed);
    EXPECT_EQ(parseDateTime("2013-07-15 12:34", seconds), ParseStatus::kMalformed);
}

TEST(ValueParser, TsvEscapes)
{
    std::string out;
    EXPECT_TRUE(unescapeTsvField("a\\tb\\nc\\\\d\\0e\\'\\x41", out));
    EXPECT_EQ(out, std::string("a\tb\nc\\d\0e'A", 11));
    out.clear();
    EXPECT_FALSE(unescapeTsvField("bad\\q", out));
    out.clear();
    EXPECT_FALSE(unescapeTsvField("trailing\\", out));
    out.clear();
    EXPECT_FALSE(unescapeTsvField("\\x4", out));
}

TEST(ValueParser, FailureMessageTruncatesLongText)
{
    const std::string message =
        parseFailureMessage(std::string(1000, 'z'), TypeId::UInt32, ParseStatus::kMalformed);
    EXPECT_LT(message.size(), 120u);
    EXPECT_NE(message.find("as UInt32"), std::string::npos);
}

}  // namespace
}  // namespace granary
