// LIKE, string, date/time, conditional and regexp functions against per-row references.
#include <gtest/gtest.h>

#include <ctime>
#include <regex>

#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

constexpr size_t kRows = 2000;

Block stringBlock(uint64_t seed)
{
    std::mt19937_64 random(seed);
    Block block;
    block.columns.push_back({"s", randomColumn(TypeId::String, kRows, random)});
    block.columns.push_back({"n", randomColumn(TypeId::Int8, kRows, random)});
    block.columns.push_back({"u", randomColumn(TypeId::UInt8, kRows, random)});
    block.columns.push_back({"f", randomColumn(TypeId::Float32, kRows, random)});
    block.columns.push_back({"w", randomColumn(TypeId::Int32, kRows, random)});
    return block;
}

char foldCase(char c, bool fold)
{
    return fold && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Backtracking LIKE: % any run, _ one byte, \ escapes the next byte (a trailing \ is literal).
bool likeReference(std::string_view value, std::string_view pattern, bool fold)
{
    if (pattern.empty())
    {
        return value.empty();
    }
    if (pattern[0] == '%')
    {
        for (size_t skip = 0; skip <= value.size(); ++skip)
        {
            if (likeReference(value.substr(skip), pattern.substr(1), fold))
            {
                return true;
            }
        }
        return false;
    }
    size_t width = 1;
    char expected = pattern[0];
    const bool any = expected == '_';
    if (expected == '\\' && pattern.size() > 1)
    {
        expected = pattern[1];
        width = 2;
    }
    if (value.empty() ||
        ((!any || width == 2) && foldCase(value[0], fold) != foldCase(expected, fold)))
    {
        return false;
    }
    return likeReference(value.substr(1), pattern.substr(width), fold);
}

TEST(Like, PatternsOfEveryShapeMatchNaiveMatcher)
{
    const Block block = stringBlock(1);
    const Column& s = *block.find("s");
    // Written as the SQL literal, then as the pattern the literal stands for.
    const std::vector<std::pair<std::string, std::string>> patterns = {
        {"'%google%'", "%google%"},
        {"'%.google.%'", "%.google.%"},
        {"'go%'", "go%"},
        {"'%le'", "%le"},
        {"'%o_g%'", "%o_g%"},
        {"'a\\\\%%'", "a\\%%"},
        {"''", ""},
        {"'%'", "%"},
        {"'_'", "_"},
        {"'%.g%o%'", "%.g%o%"},
        {"'%\\\\_%'", "%\\_%"},
        {"'google'", "google"},
        {"'%GOOGLE%'", "%GOOGLE%"},
        {"'G%'", "G%"},
    };
    for (const auto& [literal, pattern] : patterns)
    {
        for (const std::string op : {"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE"})
        {
            const std::string text = "s " + op + " " + literal;
            SCOPED_TRACE(text);
            const Column result = evaluateText(text, block);
            const bool negated = op.starts_with("NOT");
            const bool fold = op.find("ILIKE") != std::string::npos;
            for (size_t row = 0; row < kRows; ++row)
            {
                ASSERT_EQ(result.valueAt<uint8_t>(row),
                          likeReference(s.stringAt(row), pattern, fold) != negated)
                    << row << ": '" << s.stringAt(row) << "'";
            }
        }
    }
}

TEST(StringFunctions, LengthStrlenLowerUpper)
{
    const Block block = stringBlock(2);
    const Column& s = *block.find("s");
    const Column length = evaluateText("length(s)", block);
    const Column strlen = evaluateText("STRLEN(s)", block);
    const Column lower = evaluateText("LOWER(s)", block);
    const Column upper = evaluateText("upper(s)", block);
    ASSERT_EQ(length.type(), TypeId::UInt64);
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::string_view value = s.stringAt(row);
        EXPECT_EQ(length.valueAt<uint64_t>(row), value.size());
        EXPECT_EQ(strlen.valueAt<uint64_t>(row), value.size());
        std::string lowered(value);
        std::string uppered(value);
        for (size_t i = 0; i < value.size(); ++i)
        {
            if (value[i] >= 'A' && value[i] <= 'Z')
                lowered[i] = static_cast<char>(value[i] + 32);
            if (value[i] >= 'a' && value[i] <= 'z')
                uppered[i] = static_cast<char>(value[i] - 32);
        }
        EXPECT_EQ(lower.stringAt(row), lowered);
        EXPECT_EQ(upper.stringAt(row), uppered);
    }
}

std::tm utc(int64_t seconds)
{
    const std::time_t time = seconds;
    std::tm parts{};
    gmtime_r(&time, &parts);
    return parts;
}

int64_t secondsOf(std::tm parts)
{
    return timegm(&parts);
}

TEST(DateFunctions, MatchTheCLibraryCalendar)
{
    std::mt19937_64 random(3);
    Block block;
    block.columns.push_back({"d", randomColumn(TypeId::Date, kRows, random)});
    block.columns.push_back({"t", randomColumn(TypeId::DateTime, kRows, random)});
    const Column& dates = *block.find("d");
    const Column& times = *block.find("t");
    struct Check
    {
        std::string function;
        bool takes_date;
        std::function<int64_t(int64_t seconds)> reference;
    };
    const std::vector<Check> checks = {
        {"toYear", true, [](int64_t t) { return utc(t).tm_year + 1900; }},
        {"toMonth", true, [](int64_t t) { return utc(t).tm_mon + 1; }},
        {"toQuarter", true, [](int64_t t) { return utc(t).tm_mon / 3 + 1; }},
        {"toDayOfMonth", true, [](int64_t t) { return utc(t).tm_mday; }},
        {"toDayOfWeek", true, [](int64_t t) { return (utc(t).tm_wday + 6) % 7 + 1; }},
        {"toISOWeek", true,
         [](int64_t t)
         {
             char text[8];
             const std::tm parts = utc(t);
             std::strftime(text, sizeof text, "%V", &parts);
             return std::atoi(text);
         }},
        {"toHour", false, [](int64_t t) { return utc(t).tm_hour; }},
        {"toMinute", false, [](int64_t t) { return utc(t).tm_min; }},
        {"toSecond", false, [](int64_t t) { return utc(t).tm_sec; }},
        {"toDate", true, [](int64_t t) { return t / 86400; }},
        {"toStartOfMinute", false, [](int64_t t) { return t / 60 * 60; }},
        {"toStartOfHour", false, [](int64_t t) { return t / 3600 * 3600; }},
        {"toStartOfDay", true, [](int64_t t) { return t / 86400 * 86400; }},
        {"toMonday", true, [](int64_t t) { return t / 86400 - (utc(t).tm_wday + 6) % 7; }},
        {"toStartOfMonth", true,
         [](int64_t t)
         {
             std::tm parts = utc(t);
             parts.tm_mday = 1;
             parts.tm_hour = parts.tm_min = parts.tm_sec = 0;
             return secondsOf(parts) / 86400;
         }},
        {"toStartOfYear", true,
         [](int64_t t)
         {
             std::tm parts = utc(t);
             parts.tm_mday = 1;
             parts.tm_mon = 0;
             parts.tm_hour = parts.tm_min = parts.tm_sec = 0;
             return secondsOf(parts) / 86400;
         }},
    };
    for (const Check& check : checks)
    {
        for (const bool on_date : {false, true})
        {
            if (on_date && !check.takes_date)
            {
                continue;
            }
            const std::string text = check.function + (on_date ? "(d)" : "(t)");
            SCOPED_TRACE(text);
            const Column result = evaluateText(text, block);
            for (size_t row = 0; row < kRows; ++row)
            {
                const int64_t seconds = on_date ? int64_t{dates.valueAt<uint16_t>(row)} * 86400
                                                : int64_t{times.valueAt<uint32_t>(row)};
                const int64_t expected = check.reference(seconds);
                const int64_t actual = static_cast<int64_t>(bitsAt(result, row));
                // Wider results wrap into the result type: a DateTime of a late Date wraps.
                ASSERT_EQ(actual,
                          expected & (fixedWidth(result.type()) == 8
                                          ? -1
                                          : (int64_t{1} << (8 * fixedWidth(result.type()))) - 1))
                    << row << ": " << seconds;
            }
        }
    }
}

TEST(DateFunctions, ExtractAndDateTruncAreTheirAliases)
{
    std::mt19937_64 random(4);
    Block block;
    block.columns.push_back({"d", randomColumn(TypeId::Date, kRows, random)});
    block.columns.push_back({"t", randomColumn(TypeId::DateTime, kRows, random)});
    const std::vector<std::pair<std::string, std::string>> same = {
        {"extract(MINUTE FROM t)", "toMinute(t)"},
        {"EXTRACT(hour FROM t)", "toHour(t)"},
        {"extract(SECOND FROM t)", "toSecond(t)"},
        {"extract(DAY FROM d)", "toDayOfMonth(d)"},
        {"extract(MONTH FROM t)", "toMonth(t)"},
        {"extract(YEAR FROM d)", "toYear(d)"},
        {"extract(WEEK FROM d)", "toISOWeek(d)"},
        {"extract(QUARTER FROM t)", "toQuarter(t)"},
        {"DATE_TRUNC('minute', t)", "toStartOfMinute(t)"},
        {"date_trunc('HOUR', t)", "toStartOfHour(t)"},
        {"DATE_TRUNC('day', t)", "toStartOfDay(t)"},
        {"DATE_TRUNC('second', t)", "t"},
        {"DATE_TRUNC('month', t)", "toDateTime(toStartOfMonth(t))"},
        {"DATE_TRUNC('year', d)", "toStartOfYear(d)"},
        {"DATE_TRUNC('week', d)", "toMonday(d)"},
        {"DATE_TRUNC('quarter', t)", "toDateTime(toStartOfQuarter(t))"},
    };
    for (const auto& [text, equivalent] : same)
    {
        SCOPED_TRACE(text);
        const Column left = evaluateText(text, block);
        const Column right = evaluateText(equivalent, block);
        ASSERT_EQ(left.type(), right.type());
        for (size_t row = 0; row < kRows; ++row)
        {
            ASSERT_EQ(bitsAt(left, row), bitsAt(right, row)) << row;
        }
    }
    EXPECT_EQ(compileText("DATE_TRUNC('minute', t)", block).type(), TypeId::DateTime);
    EXPECT_EQ(compileText("DATE_TRUNC('year', t)", block).type(), TypeId::DateTime);
    EXPECT_EQ(compileText("DATE_TRUNC('month', d)", block).type(), TypeId::Date);
}

TEST(Conditional, CaseAndIfPickTheFirstTrueBranch)
{
    const Block block = stringBlock(5);
    const Column& s = *block.find("s");
    const Column& n = *block.find("n");
    const Column& u = *block.find("u");
    const Column& f = *block.find("f");
    const Column& w = *block.find("w");

    const Column src = evaluateText("CASE WHEN (n = 0 AND u = 0) THEN s ELSE '' END", block);
    const Column numbers =
        evaluateText("CASE WHEN n > 0 THEN n WHEN u > 100 THEN u * 1000 END", block);
    const Column by_value =
        evaluateText("CASE u WHEN 0 THEN 'zero' WHEN 1 THEN 'one' ELSE s END", block);
    const Column chosen = evaluateText("if(n < 0, f, w)", block);
    const Column multi = evaluateText("multiIf(n < 0, -1, n > 0, 1, 0)", block);
    ASSERT_EQ(src.type(), TypeId::String);
    ASSERT_EQ(numbers.type(), TypeId::Int64);
    ASSERT_EQ(chosen.type(), TypeId::Float64);
    for (size_t row = 0; row < kRows; ++row)
    {
        const int8_t x = n.valueAt<int8_t>(row);
        const uint8_t y = u.valueAt<uint8_t>(row);
        EXPECT_EQ(src.stringAt(row), x == 0 && y == 0 ? s.stringAt(row) : "");
        EXPECT_EQ(numbers.valueAt<int64_t>(row), x > 0 ? x : y > 100 ? y * 1000 : 0);
        EXPECT_EQ(by_value.stringAt(row), y == 0 ? "zero" : y == 1 ? "one" : s.stringAt(row));
        EXPECT_EQ(chosen.valueAt<double>(row),
                  x < 0 ? double{f.valueAt<float>(row)} : double(w.valueAt<int32_t>(row)));
        EXPECT_EQ(multi.valueAt<int64_t>(row), x < 0 ? -1 : x > 0 ? 1 : 0);
    }
}

TEST(Regexp, ReplaceMatchesStdRegex)
{
    Block block;
    Column urls(TypeId::String);
    const std::vector<std::string> samples = {"http://www.example.com/path?q=1",
                                              "https://yandex.ru/",
                                              "ftp://host/x",
                                              "http://nohost",
                                              "",
                                              "https://www.",
                                              "http://a.b/c/d",
                                              "https://www.google.com/search/",
                                              "no url at all",
                                              "http://host/\xFF\xFE"};
    for (size_t row = 0; row < 200; ++row)
    {
        urls.appendString(samples[row % samples.size()] + (row % 3 ? "" : "/tail"));
    }
    block.columns.push_back({"Referer", std::move(urls)});
    const Column& referer = block.columns[0].column;

    struct Case
    {
        std::string sql;
        std::string pattern;
        std::string format;
        bool all;
    };
    const std::vector<Case> cases = {
        {"REGEXP_REPLACE(Referer, '^https?://(?:www\\.)?([^/]+)/.*$', '\\1')",
         "^https?://(?:www\\.)?([^/]+)/.*$", "$1", true},
        {"replaceRegexpOne(Referer, 'o', '[\\\\0]')", "o", "[$&]", false},
        {"replaceRegexpAll(Referer, '[aeiou]+', '<\\\\0\\\\\\\\>')", "[aeiou]+", "<$&\\>", true},
        {"replaceRegexpAll(Referer, '(w+)\\.', '\\1-')", "(w+)\\.", "$1-", true},
    };
    for (const Case& c : cases)
    {
        SCOPED_TRACE(c.sql);
        const Column result = evaluateText(c.sql, block);
        const std::regex regex(c.pattern);
        for (size_t row = 0; row < referer.size(); ++row)
        {
            const std::string value(referer.stringAt(row));
            const std::string expected =
                std::regex_replace(value, regex, c.format,
                                   c.all ? std::regex_constants::format_default
                                         : std::regex_constants::format_first_only);
            ASSERT_EQ(result.stringAt(row), expected) << value;
        }
    }
}

}  // namespace
}  // namespace granary::testing
