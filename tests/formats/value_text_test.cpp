#include "engine/formats/value_text.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/formats/test_blocks.h"

namespace granary
{
namespace
{

std::string date(uint16_t days)
{
    std::string out;
    formatDate(days, out);
    return out;
}

std::string dateTime(uint32_t seconds)
{
    std::string out;
    formatDateTime(seconds, out);
    return out;
}

TEST(ValueText, DatesMatchKnownCalendarDays)
{
    EXPECT_EQ(date(0), "1970-01-01");
    EXPECT_EQ(date(15888), "2013-07-02");  // ClickBench's first EventDate.
    EXPECT_EQ(date(11016), "2000-02-29");  // A leap day of a century divisible by 400.
    EXPECT_EQ(date(11017), "2000-03-01");
    EXPECT_EQ(date(65535), "2149-06-06");  // The last day a 16-bit Date holds.
}

TEST(ValueText, DateTimesAreUtc)
{
    EXPECT_EQ(dateTime(0), "1970-01-01 00:00:00");
    EXPECT_EQ(dateTime(1372708869), "2013-07-01 20:01:09");
    EXPECT_EQ(dateTime(4294967295U), "2106-02-07 06:28:15");
}

TEST(ValueText, FloatsUseShortestRoundTripText)
{
    const Column doubles =
        test::fixedColumn<double>(TypeId::Float64, {1.0, 0.1, -2.5, 1513.4879349030107,
                                                    std::numeric_limits<double>::quiet_NaN(),
                                                    std::numeric_limits<double>::infinity(), -0.0});
    const std::vector<std::string> expected = {"1",   "0.1", "-2.5", "1513.4879349030107",
                                               "nan", "inf", "-0"};
    for (size_t row = 0; row < expected.size(); ++row)
    {
        EXPECT_EQ(formatValue(doubles.view(), row), expected[row]);
    }
    const Column floats = test::fixedColumn<float>(TypeId::Float32, {0.1F});
    EXPECT_EQ(formatValue(floats.view(), 0), "0.1");
}

TEST(ValueText, IntegersCoverTheirWholeRange)
{
    const Column int8 = test::fixedColumn<int8_t>(TypeId::Int8, {-128, 127});
    EXPECT_EQ(formatValue(int8.view(), 0), "-128");
    EXPECT_EQ(formatValue(int8.view(), 1), "127");
    const Column uint64 = test::fixedColumn<uint64_t>(TypeId::UInt64, {18446744073709551615ULL});
    EXPECT_EQ(formatValue(uint64.view(), 0), "18446744073709551615");
    const Column int64 =
        test::fixedColumn<int64_t>(TypeId::Int64, {std::numeric_limits<int64_t>::min()});
    EXPECT_EQ(formatValue(int64.view(), 0), "-9223372036854775808");
}

}  // namespace
}  // namespace granary
