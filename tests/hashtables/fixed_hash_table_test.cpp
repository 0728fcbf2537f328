#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "hashtables/hash_map.h"
#include "hashtables/merge.h"
#include "oracle.h"

namespace granary
{
namespace
{

template <typename T>
class FixedHashMapTest : public ::testing::Test
{
};
using FixedKeys = ::testing::Types<uint8_t, int8_t, uint16_t, int16_t>;
TYPED_TEST_SUITE(FixedHashMapTest, FixedKeys);

TYPED_TEST(FixedHashMapTest, MatchesTheOracleOverTheWholeDomain)
{
    using Key = TypeParam;
    FixedHashMap<Key, uint64_t> table;
    std::unordered_map<Key, uint64_t> oracle;
    std::mt19937_64 random(5);
    for (int i = 0; i < 300000; ++i)
    {
        const Key key = static_cast<Key>(random());
        bool inserted;
        table.emplace(key, inserted)->mapped() += i;
        EXPECT_EQ(inserted, oracle.find(key) == oracle.end());
        oracle[key] += i;
    }
    for (const Key key : {Key{0}, std::numeric_limits<Key>::min(), std::numeric_limits<Key>::max()})
    {
        bool inserted;
        table.emplace(key, inserted)->mapped() += 1;
        oracle[key] += 1;
    }
    EXPECT_EQ(table.size(), oracle.size());
    EXPECT_EQ((testing::contentsOf<decltype(table), Key, uint64_t>(table)), oracle);
}

TYPED_TEST(FixedHashMapTest, MergeEqualsTheUnion)
{
    using Key = TypeParam;
    FixedHashMap<Key, uint64_t> left;
    FixedHashMap<Key, uint64_t> right;
    std::unordered_map<Key, uint64_t> oracle;
    for (int i = 0; i < 100; ++i)
    {
        bool inserted;
        left.emplace(static_cast<Key>(i * 3), inserted)->mapped() += 1;
        oracle[static_cast<Key>(i * 3)] += 1;
        right.emplace(static_cast<Key>(i * 5), inserted)->mapped() += 2;
        oracle[static_cast<Key>(i * 5)] += 2;
    }
    mergeTables(left, right, [](uint64_t& target, uint64_t source) { target += source; });
    EXPECT_EQ((testing::contentsOf<decltype(left), Key, uint64_t>(left)), oracle);
}

TEST(FixedHashSet, MatchesTheOracle)
{
    FixedHashSet<int16_t> set;
    std::unordered_set<int16_t> oracle;
    std::mt19937_64 random(2);
    for (int i = 0; i < 20000; ++i)
    {
        const auto key = static_cast<int16_t>(random() % 3000 - 1500);
        bool inserted;
        set.emplace(key, inserted);
        EXPECT_EQ(inserted, oracle.insert(key).second);
    }
    EXPECT_EQ((testing::keysOf<decltype(set), int16_t>(set)), oracle);
}

TEST(FixedHashMap, SlotRangesPartitionTheKeys)
{
    FixedHashMap<uint16_t, uint64_t> table;
    for (uint32_t key = 0; key < 65536; key += 7)
    {
        bool inserted;
        table.emplace(static_cast<uint16_t>(key), inserted)->mapped() = key;
    }
    size_t visited = 0;
    const size_t step = table.kSlotCount / 16;
    for (size_t first = 0; first < table.kSlotCount; first += step)
    {
        table.forEachCellInSlots(first, first + step,
                                 [&](const auto& cell)
                                 {
                                     EXPECT_GE(cell.key(), first);
                                     EXPECT_LT(cell.key(), first + step);
                                     EXPECT_EQ(cell.mapped(), cell.key());
                                     ++visited;
                                 });
    }
    EXPECT_EQ(visited, table.size());
}

}  // namespace
}  // namespace granary
