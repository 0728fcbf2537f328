#include "hashtables/hash.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <string>

#include "hashtables/internal/inline_string_keys.h"

namespace granary
{
namespace
{

TEST(Hash, InlineKeysRecomputeTheStringHash)
{
    std::mt19937_64 random(1);
    internal::InlineStringHash inline_hash;
    for (size_t length = 1; length <= internal::kMaxInlineStringBytes; ++length)
    {
        for (int i = 0; i < 200; ++i)
        {
            std::string s(length, '\0');
            for (char& c : s)
            {
                c = static_cast<char>(random() % 256);
            }
            s.back() = static_cast<char>(random() % 255 + 1);  // inline keys never end in NUL
            const uint64_t expected = hashing::hashString(s);
            uint64_t actual;
            if (length <= 8)
            {
                actual = inline_hash(internal::packInlineString<1>(s));
                EXPECT_EQ(internal::packInlineString<1>(s).view(), s);
            }
            else if (length <= 16)
            {
                actual = inline_hash(internal::packInlineString<2>(s));
                EXPECT_EQ(internal::packInlineString<2>(s).view(), s);
            }
            else
            {
                actual = inline_hash(internal::packInlineString<3>(s));
                EXPECT_EQ(internal::packInlineString<3>(s).view(), s);
            }
            ASSERT_EQ(actual, expected) << "length " << length;
        }
    }
}

/// Chi-square over 256 cells of `bits` taken from the hash; a uniform source stays near 255.
template <typename Source>
double chiSquare(Source&& hash_of, int shift, size_t samples)
{
    std::array<size_t, 256> counts{};
    for (size_t i = 0; i < samples; ++i)
    {
        ++counts[(hash_of(i) >> shift) & 0xFF];
    }
    const double expected = static_cast<double>(samples) / 256;
    double chi = 0;
    for (size_t count : counts)
    {
        chi += (count - expected) * (count - expected) / expected;
    }
    return chi;
}

TEST(Hash, LowAndTopBitsAreUniformForAdversarialIntegers)
{
    // 255 degrees of freedom: the 99.99th percentile is about 361.
    const double limit = 400;
    const size_t samples = 256 * 400;
    auto sequential = [](uint64_t i) { return hashing::hashInt64(i + 1); };
    auto high_bits_only = [](uint64_t i) { return hashing::hashInt64((i + 1) << 40); };
    auto stride_4096 = [](uint64_t i) { return hashing::hashInt64((i + 1) * 4096); };
    for (int shift : {0, 8, 56})
    {
        EXPECT_LT(chiSquare(sequential, shift, samples), limit) << "shift " << shift;
        EXPECT_LT(chiSquare(high_bits_only, shift, samples), limit) << "shift " << shift;
        EXPECT_LT(chiSquare(stride_4096, shift, samples), limit) << "shift " << shift;
    }
}

TEST(Hash, StringHashSpreadsSimilarStrings)
{
    const double limit = 400;
    const size_t samples = 256 * 400;
    auto url = [](uint64_t i)
    { return hashing::hashString("https://example.com/page?id=" + std::to_string(i)); };
    auto short_keys = [](uint64_t i) { return hashing::hashString(std::to_string(i)); };
    for (int shift : {0, 8, 56})
    {
        EXPECT_LT(chiSquare(url, shift, samples), limit) << "shift " << shift;
        EXPECT_LT(chiSquare(short_keys, shift, samples), limit) << "shift " << shift;
    }
}

TEST(Hash, EveryByteOfEveryLengthChangesTheStringHash)
{
    // Lengths through every branch of hashBytes (overlapping windows for 33-128 bytes, the
    // 64-byte loop beyond), one byte changed at each position.
    std::mt19937_64 random(11);
    for (size_t length = 1; length <= 300; ++length)
    {
        std::string s(length, '\0');
        for (char& c : s)
        {
            c = static_cast<char>(random() % 256);
        }
        const uint64_t original = hashing::hashString(s);
        for (size_t position = 0; position < length; ++position)
        {
            std::string changed = s;
            changed[position] = static_cast<char>(changed[position] ^ (1 + random() % 255));
            EXPECT_NE(hashing::hashString(changed), original)
                << "length " << length << " position " << position;
        }
        EXPECT_NE(hashing::hashString(s + '\0'), original) << length;
    }
}

TEST(Hash, StringHashSpreadsLongKeysThatDifferInTheMiddle)
{
    // URL-like keys of 40 to 200 bytes whose varying part sits between fixed head and tail.
    const double limit = 400;
    const size_t samples = 256 * 400;
    for (size_t padding : {10, 60, 150})
    {
        auto middle = [padding](uint64_t i)
        {
            return hashing::hashString("https://example.com/" + std::to_string(i) + "/" +
                                       std::string(padding, 'x') + "/index.html");
        };
        for (int shift : {0, 8, 56})
        {
            EXPECT_LT(chiSquare(middle, shift, samples), limit)
                << "padding " << padding << " shift " << shift;
        }
    }
}

TEST(Hash, LoadTailNeverReadsPastTheEnd)
{
    // An exact-sized heap buffer: ASan flags any read past its end.
    for (size_t length = 1; length <= 8; ++length)
    {
        auto* bytes = new char[length];
        for (size_t i = 0; i < length; ++i)
        {
            bytes[i] = static_cast<char>(i + 1);
        }
        uint64_t expected = 0;
        std::memcpy(&expected, bytes, length);
        EXPECT_EQ(hashing::loadTail(bytes, length), expected);
        delete[] bytes;
    }
}

}  // namespace
}  // namespace granary
