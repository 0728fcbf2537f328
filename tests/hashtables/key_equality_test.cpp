#include "hashtables/key_equality.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

namespace granary
{
namespace
{

// Oracle: std::string_view's own operator==. Every length up to past the inline limit, with
// one byte changed at every position (first, middle, the overlapping last step).
TEST(KeyEquality, StringKeysAgreeWithStringViewEquality)
{
    std::mt19937_64 random(7);
    for (size_t length = 0; length <= internal::kInlineCompareMaxBytes + 40; ++length)
    {
        std::string a(length, '\0');
        for (char& c : a)
        {
            c = static_cast<char>(random() % 256);
        }
        const std::string same = a;
        EXPECT_TRUE(keysEqual(std::string_view(a), std::string_view(same))) << length;
        for (size_t position = 0; position < length; ++position)
        {
            std::string changed = a;
            changed[position] = static_cast<char>(changed[position] ^ (1 + random() % 255));
            EXPECT_EQ(keysEqual(std::string_view(a), std::string_view(changed)),
                      std::string_view(a) == std::string_view(changed))
                << "length " << length << " position " << position;
        }
        if (length > 0)
        {
            EXPECT_FALSE(keysEqual(std::string_view(a), std::string_view(a).substr(1)));
        }
    }
}

TEST(KeyEquality, NulBytesAreCompared)
{
    using namespace std::string_view_literals;
    EXPECT_FALSE(keysEqual("a\0b"sv, "a\0c"sv));
    EXPECT_TRUE(keysEqual("a\0b"sv, "a\0b"sv));
    EXPECT_FALSE(keysEqual("a"sv, "a\0"sv));
    EXPECT_TRUE(keysEqual(""sv, ""sv));
}

}  // namespace
}  // namespace granary
