#include "simd/column_search.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "simd/substring_searcher.h"
#include "simd_test_support.h"

namespace granary::simd
{
namespace
{

using testing::asciiLower;
using testing::ExactColumn;

/// What std::string_view::find says about one row.
struct RowOracle
{
    bool contains = false;
    uint64_t position = 0;
    uint64_t count = 0;
};

RowOracle oracleFor(std::string_view row, std::string_view needle)
{
    RowOracle oracle;
    const size_t first = row.find(needle);
    oracle.contains = first != std::string_view::npos;
    oracle.position = oracle.contains ? first + 1 : 0;
    if (!needle.empty())
    {
        for (size_t at = first; at != std::string_view::npos;
             at = row.find(needle, at + needle.size()))
        {
            ++oracle.count;
        }
    }
    return oracle;
}

class ColumnSearchTest : public testing::SimdLevelTest
{
protected:
    /// Runs every column function and SubstringSearcher::find on `rows` and compares each row
    /// with std::string_view::find (on lower-cased copies when ignoring case).
    void expectMatchesOracle(const std::vector<std::string>& rows, std::string_view needle,
                             CaseSensitivity case_sensitivity = CaseSensitivity::Sensitive,
                             FilterPairChoice pair_choice = FilterPairChoice::RarestInUrls)
    {
        SCOPED_TRACE(::testing::Message() << "needle '" << needle << "' (" << needle.size()
                                          << " bytes), " << rows.size() << " rows");
        const bool ignore_case = case_sensitivity == CaseSensitivity::AsciiInsensitive;
        const std::string oracle_needle = ignore_case ? asciiLower(needle) : std::string(needle);
        const ExactColumn column(rows);
        const SubstringSearcher searcher(needle, {case_sensitivity, GetParam(), pair_choice});
        const size_t row_count = rows.size();
        auto matching = std::make_unique<uint8_t[]>(row_count);
        auto not_matching = std::make_unique<uint8_t[]>(row_count);
        auto positions = std::make_unique<uint64_t[]>(row_count);
        auto counts = std::make_unique<uint64_t[]>(row_count);
        const size_t selected =
            selectRowsContaining(searcher, column.view(), RowSelection::Matching, matching.get());
        const size_t not_selected = selectRowsContaining(
            searcher, column.view(), RowSelection::NotMatching, not_matching.get());
        findFirstPositions(searcher, column.view(), positions.get());
        countSubstrings(searcher, column.view(), counts.get());

        size_t expected_selected = 0;
        for (size_t row = 0; row < row_count; ++row)
        {
            const std::string oracle_row = ignore_case ? asciiLower(rows[row]) : rows[row];
            const RowOracle expected = oracleFor(oracle_row, oracle_needle);
            expected_selected += expected.contains;
            ASSERT_EQ(matching[row], expected.contains ? 1 : 0)
                << "row " << row << ": " << rows[row];
            ASSERT_EQ(not_matching[row], expected.contains ? 0 : 1) << "row " << row;
            ASSERT_EQ(positions[row], expected.position) << "row " << row << ": " << rows[row];
            ASSERT_EQ(counts[row], expected.count) << "row " << row << ": " << rows[row];
            ASSERT_EQ(searcher.find(rows[row]), oracle_row.find(oracle_needle)) << "row " << row;
        }
        EXPECT_EQ(selected, expected_selected);
        EXPECT_EQ(not_selected, row_count - expected_selected);
        EXPECT_EQ(countRowsContaining(searcher, column.view()), expected_selected);
    }
};

/// Bytes of the random tests: few distinct ones so that needles occur often, with NUL, bytes
/// >= 0x80 and both cases of letters.
constexpr std::string_view kRandomAlphabet("abcAB\0\x80\xff", 8);

std::string randomText(std::mt19937_64& random, size_t size)
{
    std::string text(size, '\0');
    for (char& byte : text)
    {
        byte = kRandomAlphabet[random() % kRandomAlphabet.size()];
    }
    return text;
}

std::vector<std::string> randomRows(std::mt19937_64& random, size_t max_rows, size_t max_row_size)
{
    std::vector<std::string> rows(random() % (max_rows + 1));
    for (std::string& row : rows)
    {
        // A third of the rows are empty or tiny, the rest spread up to max_row_size.
        const size_t size = random() % 3 == 0 ? random() % 3 : random() % (max_row_size + 1);
        row = randomText(random, size);
    }
    return rows;
}

/// A needle that often occurs: usually cut from one of the rows, sometimes random.
std::string randomNeedle(std::mt19937_64& random, const std::vector<std::string>& rows)
{
    const size_t size = 1 + random() % 12;
    if (!rows.empty() && random() % 4 != 0)
    {
        const std::string& row = rows[random() % rows.size()];
        if (row.size() >= size)
        {
            return row.substr(random() % (row.size() - size + 1), size);
        }
    }
    return randomText(random, size);
}

TEST_P(ColumnSearchTest, RandomColumnsMatchStringViewFind)
{
    std::mt19937_64 random(42);
    for (int iteration = 0; iteration < 150; ++iteration)
    {
        const std::vector<std::string> rows = randomRows(random, 60, iteration % 2 ? 40 : 400);
        const std::string needle = randomNeedle(random, rows);
        expectMatchesOracle(rows, needle);
        expectMatchesOracle(rows, needle, CaseSensitivity::Sensitive, FilterPairChoice::FirstTwo);
    }
}

TEST_P(ColumnSearchTest, CaseInsensitiveMatchesLowerCasedOracle)
{
    std::mt19937_64 random(7);
    for (int iteration = 0; iteration < 150; ++iteration)
    {
        const std::vector<std::string> rows = randomRows(random, 60, iteration % 2 ? 40 : 400);
        const std::string needle = randomNeedle(random, rows);
        expectMatchesOracle(rows, needle, CaseSensitivity::AsciiInsensitive);
    }
    expectMatchesOracle({"http://www.GOOGLE.com", "GoOgLe", "goog", "LE", "[google]", "{GOOGLE}"},
                        "Google", CaseSensitivity::AsciiInsensitive);
    // '[' and '{' differ only in the case bit, but they are not letters.
    expectMatchesOracle({"a[b", "a{b", "A{B", "A[B"}, "a[b", CaseSensitivity::AsciiInsensitive);
    expectMatchesOracle({"\xc0\xe0", "\xe0\xe0"}, "\xe0\xe0", CaseSensitivity::AsciiInsensitive);
}

TEST_P(ColumnSearchTest, NeedleAtRowStartsEndsAndBufferEnd)
{
    expectMatchesOracle({"google", "xgoogle", "googlex", "google"}, "google");
    expectMatchesOracle({std::string(200, 'x') + "google", "", "google" + std::string(200, 'y'),
                         std::string(1000, 'z') + "google"},
                        "google");
    expectMatchesOracle({"x", "y", "gg"}, "gg");
    expectMatchesOracle({"x", "y", "g"}, "g");
}

TEST_P(ColumnSearchTest, OccurrencesStraddlingTwoRowsDoNotMatch)
{
    expectMatchesOracle({"xxgoog", "lexx", "go", "ogle", "g", "oogle"}, "google");
    // A straddling candidate must not hide a real match right at the next row's start.
    expectMatchesOracle(
        {"xxgoog", "googlexx", std::string(130, 'g') + "goo", "gle" + std::string(130, 'e')},
        "google");
    std::vector<std::string> split_everywhere;
    const std::string needle = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (size_t cut = 1; cut < needle.size(); ++cut)
    {
        split_everywhere.push_back(std::string(cut * 7 % 61, '.') + needle.substr(0, cut));
        split_everywhere.push_back(needle.substr(cut));
    }
    expectMatchesOracle(split_everywhere, needle);
}

TEST_P(ColumnSearchTest, RepeatedFirstCharacters)
{
    expectMatchesOracle({"aaaaaaab", "aaaab", "aaab", "aaaa", "baaaab"}, "aaaab");
    expectMatchesOracle({"aaaaa", "aaaa", "a", "aa"}, "aa");
    expectMatchesOracle({std::string(300, 'a') + "b", std::string(300, 'a')},
                        std::string(100, 'a') + "b");
    expectMatchesOracle({"abababababac", "ababac"}, "ababac");
}

TEST_P(ColumnSearchTest, EveryNeedleLengthFrom1To300)
{
    std::mt19937_64 random(300);
    for (size_t size = 1; size <= 300; ++size)
    {
        const std::string needle = randomText(random, size);
        std::string almost = needle;
        almost.back() = almost.back() == 'a' ? 'b' : 'a';
        const std::vector<std::string> rows = {
            needle,
            randomText(random, random() % 100) + needle + randomText(random, random() % 100),
            needle.substr(0, size - 1),
            almost,
            "",
            needle.substr(0, size / 2),
            needle.substr(size / 2) + needle,
            randomText(random, random() % 200),
            needle + needle,
            randomText(random, random() % 70) + needle,
        };
        expectMatchesOracle(rows, needle);
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
}

TEST_P(ColumnSearchTest, LongRowsCrossManyBlocks)
{
    std::mt19937_64 random(64);
    for (int iteration = 0; iteration < 20; ++iteration)
    {
        const std::vector<std::string> rows = randomRows(random, 8, 3000);
        expectMatchesOracle(rows, randomNeedle(random, rows));
    }
}

TEST_P(ColumnSearchTest, NulAndHighBytesInsideRows)
{
    using namespace std::string_literals;
    expectMatchesOracle({"a\0b"s, "\0\0\0"s, "\x80\xff\0"s, "xx\xff\0"s}, "\xff\0"s);
    expectMatchesOracle({"\0"s, ""s, "a\0"s}, "\0"s);
    expectMatchesOracle({"\x80\x80\x80\x81"s, "\x80\x81"s}, "\x80\x80\x81"s);
}

TEST_P(ColumnSearchTest, ZeroRowsEmptyRowsAndEmptyNeedle)
{
    expectMatchesOracle({}, "google");
    expectMatchesOracle({}, "");
    expectMatchesOracle({"", "", ""}, "a");
    expectMatchesOracle({"", "abc", ""}, "");
    expectMatchesOracle({"short"}, "a needle longer than the whole buffer");
    const SubstringSearcher searcher("abc", {CaseSensitivity::Sensitive, GetParam()});
    EXPECT_EQ(countRowsContaining(searcher, StringColumnView{}), 0u);
}

TEST_P(ColumnSearchTest, MatchesNearAndFarApart)
{
    // Gaps of a few rows, of tens and of thousands exercise every way the row cursor moves.
    std::vector<std::string> rows(5000, "abcdefgh");
    for (size_t row = 0; row < rows.size(); row += 7)
    {
        rows[row] = "";
    }
    for (size_t row : {0, 1, 3, 9, 40, 41, 300, 301, 1200, 4990, 4999})
    {
        rows[row] = "xx google";
    }
    for (size_t row : {60, 200, 2000, 2001})
    {
        rows[row] = "googlexx";
    }
    expectMatchesOracle(rows, "google");
}

TEST_P(ColumnSearchTest, SlicesOfAColumnMatchTheWholeColumn)
{
    std::mt19937_64 random(11);
    const std::vector<std::string> rows = randomRows(random, 200, 150);
    const ExactColumn column(rows);
    const SubstringSearcher searcher("ab", {CaseSensitivity::Sensitive, GetParam()});
    std::vector<uint8_t> whole(rows.size());
    selectRowsContaining(searcher, column.view(), RowSelection::Matching, whole.data());
    for (size_t first = 0; first < rows.size(); first += 37)
    {
        const size_t count = std::min<size_t>(50, rows.size() - first);
        std::vector<uint8_t> part(count);
        selectRowsContaining(searcher, column.view().slice(first, count), RowSelection::Matching,
                             part.data());
        EXPECT_TRUE(std::equal(part.begin(), part.end(), whole.begin() + first)) << first;
    }
}

INSTANTIATE_TEST_SUITE_P(AllLevels, ColumnSearchTest, ::testing::ValuesIn(testing::kAllSimdLevels),
                         testing::simdLevelTestName);

}  // namespace
}  // namespace granary::simd
