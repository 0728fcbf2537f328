#include "simd/like_pattern.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "simd_test_support.h"

namespace granary::simd
{
namespace
{

using testing::asciiLower;
using testing::ExactColumn;

/// The oracle: LIKE by plain recursion over the pattern, written independently of LikePattern.
bool naiveLike(std::string_view value, std::string_view pattern)
{
    if (pattern.empty())
    {
        return value.empty();
    }
    if (pattern[0] == '%')
    {
        for (size_t skip = 0; skip <= value.size(); ++skip)
        {
            if (naiveLike(value.substr(skip), pattern.substr(1)))
            {
                return true;
            }
        }
        return false;
    }
    if (value.empty())
    {
        return false;
    }
    if (pattern[0] == '_')
    {
        return naiveLike(value.substr(1), pattern.substr(1));
    }
    size_t literal_size = 1;
    if (pattern[0] == '\\' && pattern.size() > 1)
    {
        literal_size = 2;
    }
    return value[0] == pattern[literal_size - 1] &&
           naiveLike(value.substr(1), pattern.substr(literal_size));
}

class LikePatternTest : public testing::SimdLevelTest
{
protected:
    SearchOptions options(CaseSensitivity case_sensitivity = CaseSensitivity::Sensitive) const
    {
        return {case_sensitivity, GetParam()};
    }

    /// Checks LikePattern::matches and selectRows (both polarities) against the oracle.
    void expectMatchesOracle(const std::vector<std::string>& rows, std::string_view pattern,
                             CaseSensitivity case_sensitivity = CaseSensitivity::Sensitive)
    {
        SCOPED_TRACE(::testing::Message() << "pattern '" << pattern << "'");
        const bool ignore_case = case_sensitivity == CaseSensitivity::AsciiInsensitive;
        const LikePattern like(pattern, options(case_sensitivity));
        const ExactColumn column(rows);
        auto matching = std::make_unique<uint8_t[]>(rows.size());
        auto not_matching = std::make_unique<uint8_t[]>(rows.size());
        const size_t selected =
            like.selectRows(column.view(), RowSelection::Matching, matching.get());
        const size_t not_selected =
            like.selectRows(column.view(), RowSelection::NotMatching, not_matching.get());
        size_t expected_selected = 0;
        for (size_t row = 0; row < rows.size(); ++row)
        {
            const bool expected = ignore_case
                                      ? naiveLike(asciiLower(rows[row]), asciiLower(pattern))
                                      : naiveLike(rows[row], pattern);
            expected_selected += expected;
            ASSERT_EQ(like.matches(rows[row]), expected) << "value '" << rows[row] << "'";
            ASSERT_EQ(matching[row], expected ? 1 : 0) << "row " << row;
            ASSERT_EQ(not_matching[row], expected ? 0 : 1) << "row " << row;
        }
        EXPECT_EQ(selected, expected_selected);
        EXPECT_EQ(not_selected, rows.size() - expected_selected);
    }
};

TEST_P(LikePatternTest, ClassifiesPatterns)
{
    EXPECT_EQ(LikePattern("abc", options()).kind(), LikePatternKind::Exact);
    EXPECT_EQ(LikePattern("", options()).kind(), LikePatternKind::Exact);
    EXPECT_EQ(LikePattern("abc%", options()).kind(), LikePatternKind::Prefix);
    EXPECT_EQ(LikePattern("abc%%", options()).kind(), LikePatternKind::Prefix);
    EXPECT_EQ(LikePattern("%abc", options()).kind(), LikePatternKind::Suffix);
    EXPECT_EQ(LikePattern("%abc%", options()).kind(), LikePatternKind::Contains);
    EXPECT_EQ(LikePattern("%", options()).kind(), LikePatternKind::Contains);
    EXPECT_EQ(LikePattern("%\\%%", options()).kind(), LikePatternKind::Contains);
    EXPECT_EQ(LikePattern("a%b", options()).kind(), LikePatternKind::General);
    EXPECT_EQ(LikePattern("%a%b%", options()).kind(), LikePatternKind::General);
    EXPECT_EQ(LikePattern("_", options()).kind(), LikePatternKind::General);
    EXPECT_EQ(LikePattern("%a_c%", options()).kind(), LikePatternKind::General);
}

TEST_P(LikePatternTest, FixedCases)
{
    const std::vector<std::string> rows = {"",
                                           "a",
                                           "abc",
                                           "xabcx",
                                           "abcabc",
                                           "a%c",
                                           "a_c",
                                           "a\\c",
                                           "%",
                                           "_",
                                           "http://google.com/search",
                                           "google",
                                           "GOOGLE",
                                           "ab",
                                           "ba"};
    for (std::string_view pattern :
         {"",      "%",   "%%",       "_",           "__",    "abc",   "abc%",   "%abc",
          "%abc%", "a%c", "%a%b%",    "a_c",         "a\\%c", "a\\_c", "a\\\\c", "%\\%%",
          "\\",    "%\\", "%google%", "http%search", "%o%o%", "_b%",   "%_",     "a%%c"})
    {
        expectMatchesOracle(rows, pattern);
        expectMatchesOracle(rows, pattern, CaseSensitivity::AsciiInsensitive);
    }
}

TEST_P(LikePatternTest, RandomPatternsMatchNaiveLike)
{
    std::mt19937_64 random(2024);
    const std::string value_alphabet = "abAB%_\\";
    const std::vector<std::string> pattern_tokens = {"a",   "b",   "A",    "%",  "_",
                                                     "\\%", "\\_", "\\\\", "ab", "ba"};
    for (int iteration = 0; iteration < 400; ++iteration)
    {
        std::vector<std::string> rows(1 + random() % 40);
        for (std::string& row : rows)
        {
            row.resize(random() % 12);
            for (char& byte : row)
            {
                byte = value_alphabet[random() % value_alphabet.size()];
            }
        }
        std::string pattern;
        for (size_t tokens = random() % 7; tokens > 0; --tokens)
        {
            pattern += pattern_tokens[random() % pattern_tokens.size()];
        }
        if (random() % 8 == 0)
        {
            pattern += "\\";
        }
        expectMatchesOracle(
            rows, pattern,
            iteration % 3 == 0 ? CaseSensitivity::AsciiInsensitive : CaseSensitivity::Sensitive);
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
}

TEST_P(LikePatternTest, LongValuesUseTheSearchers)
{
    std::mt19937_64 random(99);
    std::vector<std::string> rows(100);
    for (std::string& row : rows)
    {
        row.resize(random() % 400);
        for (char& byte : row)
        {
            byte = "abcdefg/."[random() % 9];
        }
    }
    for (std::string_view pattern :
         {"%abc%", "%ab%cd%", "a%", "%g", "%a_c%", "%abc%fed%ggg", "%b/c.%", "%.%/%.%"})
    {
        expectMatchesOracle(rows, pattern);
        expectMatchesOracle(rows, pattern, CaseSensitivity::AsciiInsensitive);
    }
}

INSTANTIATE_TEST_SUITE_P(AllLevels, LikePatternTest, ::testing::ValuesIn(testing::kAllSimdLevels),
                         testing::simdLevelTestName);

}  // namespace
}  // namespace granary::simd
