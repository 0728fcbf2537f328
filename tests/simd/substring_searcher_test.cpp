#include "simd/substring_searcher.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "simd_test_support.h"

namespace granary::simd
{
namespace
{

using SubstringSearcherTest = testing::SimdLevelTest;

/// `haystack` copied to a heap buffer of exactly its size, so that ASan catches overreads.
size_t findInExactCopy(const SubstringSearcher& searcher, std::string_view haystack)
{
    const auto copy = std::make_unique<char[]>(haystack.size());
    haystack.copy(copy.get(), haystack.size());
    return searcher.find({copy.get(), haystack.size()});
}

TEST_P(SubstringSearcherTest, FindMatchesStringViewFind)
{
    std::mt19937_64 random(5);
    const std::string alphabet = "goglex";
    for (int iteration = 0; iteration < 2000; ++iteration)
    {
        std::string haystack(random() % 300, ' ');
        for (char& byte : haystack)
        {
            byte = alphabet[random() % alphabet.size()];
        }
        std::string needle(1 + random() % 8, ' ');
        for (char& byte : needle)
        {
            byte = alphabet[random() % alphabet.size()];
        }
        const SubstringSearcher searcher(needle, {CaseSensitivity::Sensitive, GetParam()});
        ASSERT_EQ(findInExactCopy(searcher, haystack), haystack.find(needle))
            << needle << " in " << haystack;
    }
}

TEST_P(SubstringSearcherTest, SpecialNeedles)
{
    const SearchOptions options{CaseSensitivity::Sensitive, GetParam()};
    EXPECT_EQ(SubstringSearcher("", options).find("abc"), 0u);
    EXPECT_EQ(SubstringSearcher("", options).find(""), 0u);
    EXPECT_EQ(findInExactCopy(SubstringSearcher("c", options), "abc"), 2u);
    EXPECT_EQ(findInExactCopy(SubstringSearcher("d", options), "abc"), std::string_view::npos);
    EXPECT_EQ(findInExactCopy(SubstringSearcher("abcd", options), "abc"), std::string_view::npos);
    EXPECT_EQ(findInExactCopy(SubstringSearcher("abc", options), ""), std::string_view::npos);
    EXPECT_EQ(findInExactCopy(SubstringSearcher("aaaab", options), "aaaaaaab"), 3u);
}

TEST_P(SubstringSearcherTest, CaseInsensitiveFoldsAsciiLettersOnly)
{
    const SubstringSearcher searcher("GoOgle", {CaseSensitivity::AsciiInsensitive, GetParam()});
    EXPECT_EQ(searcher.find("www.GOOGLE.com"), 4u);
    EXPECT_EQ(searcher.find("www.google.com"), 4u);
    EXPECT_EQ(searcher.find("www.goo-gle.com"), std::string_view::npos);
    const SubstringSearcher symbols("@[", {CaseSensitivity::AsciiInsensitive, GetParam()});
    EXPECT_EQ(symbols.find("`{"), std::string_view::npos);
    EXPECT_EQ(symbols.find("x@["), 1u);
}

TEST_P(SubstringSearcherTest, FilterPairChoice)
{
    const SubstringSearcher first_two(
        "google", {CaseSensitivity::Sensitive, GetParam(), FilterPairChoice::FirstTwo});
    EXPECT_EQ(first_two.filterPositions(), std::make_pair(size_t{0}, size_t{1}));
    const SubstringSearcher rarest(
        "google", {CaseSensitivity::Sensitive, GetParam(), FilterPairChoice::RarestInUrls});
    EXPECT_EQ(rarest.filterPositions(), std::make_pair(size_t{0}, size_t{3}));
    EXPECT_EQ(SubstringSearcher("x", {}).filterPositions(), std::make_pair(size_t{0}, size_t{0}));
}

INSTANTIATE_TEST_SUITE_P(AllLevels, SubstringSearcherTest,
                         ::testing::ValuesIn(testing::kAllSimdLevels), testing::simdLevelTestName);

TEST(SubstringSearcher, RejectsLevelsTheCpuLacks)
{
    for (SimdLevel level : testing::kAllSimdLevels)
    {
        if (!cpuSupports(level))
        {
            EXPECT_THROW(SubstringSearcher("abc", {CaseSensitivity::Sensitive, level}),
                         std::invalid_argument);
        }
    }
}

}  // namespace
}  // namespace granary::simd
