#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "alloc/arena.h"
#include "hashtables/hash_map.h"
#include "oracle.h"

namespace granary
{
namespace
{

/// Length classes around every dispatch boundary, plus very long strings.
const std::vector<size_t> kBoundaryLengths = {0,  1,  2,  7,  8,  9,  15, 16, 17,  23,
                                              24, 25, 31, 32, 33, 63, 64, 65, 200, 70000};

std::string randomString(std::mt19937_64& random, size_t length, int alphabet)
{
    std::string s(length, '\0');
    for (char& c : s)
    {
        c = static_cast<char>(random() % alphabet);  // includes NUL and bytes >= 0x80
    }
    return s;
}

/// Strings that differ only in NUL padding or trailing bytes: the inline packing must keep
/// them apart.
std::vector<std::string> trickyStrings()
{
    std::vector<std::string> strings;
    for (size_t length : kBoundaryLengths)
    {
        strings.emplace_back(length, 'a');
        strings.emplace_back(length, '\0');
        if (length > 0)
        {
            std::string with_trailing_nul(length, 'b');
            with_trailing_nul.back() = '\0';
            strings.push_back(with_trailing_nul);
            std::string with_leading_nul(length, 'c');
            with_leading_nul.front() = '\0';
            strings.push_back(with_leading_nul);
            std::string high_bytes(length, static_cast<char>(0xFF));
            strings.push_back(high_bytes);
        }
    }
    strings.emplace_back("a\0", 2);
    strings.emplace_back("a");
    strings.emplace_back("a\0\0", 3);
    strings.emplace_back("\0a", 2);
    return strings;
}

template <typename Table>
void addCount(Table& table, std::unordered_map<std::string, uint64_t>& oracle, std::string_view key,
              uint64_t value)
{
    bool inserted;
    *table.emplace(key, inserted) += value;
    EXPECT_EQ(inserted, oracle.find(std::string(key)) == oracle.end()) << key.size();
    oracle[std::string(key)] += value;
}

TEST(StringHashMap, BoundaryLengthsNulBytesAndHugeStrings)
{
    Arena arena;
    StringHashMap<uint64_t> table(&arena);
    std::unordered_map<std::string, uint64_t> oracle;
    std::mt19937_64 random(11);
    for (int round = 0; round < 2; ++round)
    {
        for (const std::string& s : trickyStrings())
        {
            addCount(table, oracle, s, 1);
        }
        for (size_t length : kBoundaryLengths)
        {
            for (int i = 0; i < 50; ++i)
            {
                addCount(table, oracle, randomString(random, length, 3), 2);
            }
        }
    }
    EXPECT_EQ(table.size(), oracle.size());
    EXPECT_EQ((testing::stringContentsOf<decltype(table), uint64_t>(table)), oracle);
    for (const auto& [key, value] : oracle)
    {
        ASSERT_NE(table.find(key), nullptr) << key.size();
        EXPECT_EQ(*table.find(key), value);
    }
    EXPECT_EQ(table.find("not there at all"), nullptr);
}

TEST(StringHashMap, RandomStringsMatchTheOracle)
{
    Arena arena;
    StringHashMap<uint64_t> table(&arena);
    std::unordered_map<std::string, uint64_t> oracle;
    std::mt19937_64 random(12);
    for (int i = 0; i < 100000; ++i)
    {
        const size_t length = random() % 40;
        addCount(table, oracle, randomString(random, length, 4 + length % 250), 1);
    }
    EXPECT_EQ((testing::stringContentsOf<decltype(table), uint64_t>(table)), oracle);
}

TEST(StringHashMap, ReserveSharesRoomAsTheKeysHeldAreShared)
{
    Arena arena;
    StringHashMap<uint64_t> table(&arena);
    std::unordered_map<std::string, uint64_t> oracle;
    // Key i of the mix: a length class by i % 4 (1..8, 9..16, 17..24 bytes, longer).
    auto key = [](size_t i)
    {
        const std::string digits = std::to_string(i);
        return std::string(std::array<size_t, 4>{0, 9, 17, 30}[i % 4], 'k') + digits;
    };
    table.reserve(1000);  // Nothing held yet: nothing to share by.
    EXPECT_EQ(table.growCount(), 0u);
    for (size_t i = 0; i < 400; ++i)
    {
        addCount(table, oracle, key(i), 1);
    }
    table.reserve(40000);
    const size_t grown = table.growCount();
    EXPECT_GT(grown, 0u);
    for (size_t i = 400; i < 40000; ++i)
    {
        addCount(table, oracle, key(i), 1);
    }
    EXPECT_EQ(table.growCount(), grown) << "keys of the reserved mix made a sub-table grow";
    table.reserve(100);  // Less than held: no change.
    EXPECT_EQ(table.growCount(), grown);
    EXPECT_EQ((testing::stringContentsOf<decltype(table), uint64_t>(table)), oracle);
}

TEST(StringHashMap, KeysArePersistedInTheArena)
{
    Arena arena;
    StringHashMap<uint64_t> table(&arena);
    std::unordered_map<std::string, uint64_t> oracle;
    std::string buffer;
    for (int i = 0; i < 2000; ++i)
    {
        buffer = "https://example.com/some/long/path/" + std::to_string(i);
        addCount(table, oracle, buffer, 1);
        buffer.assign(buffer.size(), 'X');  // the caller reuses its buffer
    }
    EXPECT_EQ((testing::stringContentsOf<decltype(table), uint64_t>(table)), oracle);
    EXPECT_GT(arena.bytesUsed(), 0u);
}

TEST(StringHashMap, MergeAndConversionToTwoLevel)
{
    Arena left_arena;
    Arena right_arena;
    StringHashMap<uint64_t> left(&left_arena);
    StringHashMap<uint64_t> right(&right_arena);
    std::unordered_map<std::string, uint64_t> left_oracle;
    std::unordered_map<std::string, uint64_t> right_oracle;
    std::mt19937_64 random(13);
    for (int i = 0; i < 40000; ++i)
    {
        addCount(left, left_oracle, randomString(random, random() % 30, 5), 1);
        addCount(right, right_oracle, randomString(random, random() % 30, 5), 3);
    }
    for (const std::string& s : trickyStrings())
    {
        addCount(right, right_oracle, s, 5);
    }

    // Conversion keeps every key and value, and each key is in the bucket of its hash.
    TwoLevelStringHashMap<uint64_t> two_level(right, nullptr);
    EXPECT_EQ((testing::stringContentsOf<decltype(two_level), uint64_t>(two_level)), right_oracle);
    for (size_t b = 0; b < two_level.kBucketCount; ++b)
    {
        two_level.bucket(b).forEach([&](std::string_view key, uint64_t)
                                    { EXPECT_EQ(two_level.bucketOf(two_level.hash(key)), b); });
    }

    // Merge equals the union with summed values.
    left.merge(right, [](uint64_t& target, uint64_t source) { target += source; });
    for (const auto& [key, value] : right_oracle)
    {
        left_oracle[key] += value;
    }
    EXPECT_EQ((testing::stringContentsOf<decltype(left), uint64_t>(left)), left_oracle);

    // Bucket-wise merge of two two-level tables.
    TwoLevelStringHashMap<uint64_t> two_level_left(left, nullptr);
    for (size_t b = 0; b < two_level.kBucketCount; ++b)
    {
        two_level_left.bucket(b).merge(two_level.bucket(b),
                                       [](uint64_t& target, uint64_t source) { target += source; });
    }
    for (const auto& [key, value] : right_oracle)
    {
        left_oracle[key] += value;
    }
    EXPECT_EQ((testing::stringContentsOf<decltype(two_level_left), uint64_t>(two_level_left)),
              left_oracle);
}

TEST(StringHashMap, MergeCopiesForeignKeysIntoTheTargetArena)
{
    Arena target_arena;
    StringHashMap<uint64_t> target(&target_arena);
    std::unordered_map<std::string, uint64_t> oracle;
    {
        Arena source_arena;
        StringHashMap<uint64_t> source(&source_arena);
        for (int i = 0; i < 500; ++i)
        {
            addCount(source, oracle,
                     std::string(30 + i % 50, static_cast<char>('a' + i % 26)) + std::to_string(i),
                     1);
        }
        target.merge(
            source, [](uint64_t& t, uint64_t s) { t += s; }, &target_arena);
    }  // the source and its arena are gone
    EXPECT_EQ((testing::stringContentsOf<decltype(target), uint64_t>(target)), oracle);
}

TEST(StringHashSet, MatchesTheOracleAndMerges)
{
    Arena arena;
    StringHashSet left(&arena);
    StringHashSet right(&arena);
    std::unordered_set<std::string> left_oracle;
    std::unordered_set<std::string> right_oracle;
    std::mt19937_64 random(14);
    for (int i = 0; i < 30000; ++i)
    {
        const std::string a = randomString(random, random() % 34, 6);
        bool inserted;
        left.emplace(a, inserted);
        EXPECT_EQ(inserted, left_oracle.insert(a).second);
        const std::string b = randomString(random, random() % 34, 6);
        right.emplace(b, inserted);
        EXPECT_EQ(inserted, right_oracle.insert(b).second);
    }
    EXPECT_EQ(testing::stringKeysOf(left), left_oracle);
    TwoLevelStringHashSet two_level(right, &arena);
    EXPECT_EQ(testing::stringKeysOf(two_level), right_oracle);
    left.merge(right, [](auto&, const auto&) {});
    left_oracle.insert(right_oracle.begin(), right_oracle.end());
    EXPECT_EQ(testing::stringKeysOf(left), left_oracle);
    EXPECT_TRUE(left.contains(*right_oracle.begin()));
}

TEST(TwoLevelStringHashMap, DirectInsertionMatchesTheOracle)
{
    Arena arena;
    TwoLevelStringHashMap<uint64_t> table(&arena);
    std::unordered_map<std::string, uint64_t> oracle;
    std::mt19937_64 random(15);
    for (int i = 0; i < 50000; ++i)
    {
        addCount(table, oracle, randomString(random, random() % 40, 8), 1);
    }
    for (const std::string& s : trickyStrings())
    {
        addCount(table, oracle, s, 1);
    }
    EXPECT_EQ((testing::stringContentsOf<decltype(table), uint64_t>(table)), oracle);
    EXPECT_EQ(table.size(), oracle.size());
}

}  // namespace
}  // namespace granary
