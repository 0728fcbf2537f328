#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "alloc/arena.h"
#include "hashtables/batch.h"
#include "hashtables/hash_map.h"
#include "hashtables/merge.h"
#include "oracle.h"

template <size_t Words>
struct std::hash<granary::PackedKey<Words>>
{
    size_t operator()(const granary::PackedKey<Words>& key) const
    {
        size_t h = 0;
        for (uint64_t word : key.words)
        {
            h = h * 1000003 ^ std::hash<uint64_t>()(word);
        }
        return h;
    }
};

namespace granary
{
namespace
{

/// Key generators: random keys, adversarial sets and conversions from an index.
template <typename Key>
struct Keys
{
    static Key fromIndex(uint64_t i) { return static_cast<Key>(i); }
    static Key random(std::mt19937_64& random) { return static_cast<Key>(random()); }
    /// Keys that share their low bits: only high bits differ.
    static Key collidingInLowBits(uint64_t i)
    {
        constexpr unsigned shift = sizeof(Key) * 8 - 12;
        return static_cast<Key>(static_cast<uint64_t>(i % 4096) << shift);
    }
    static std::vector<Key> extremes()
    {
        return {Key{0}, std::numeric_limits<Key>::max(), std::numeric_limits<Key>::min(),
                static_cast<Key>(std::numeric_limits<Key>::max() - 1), Key{1}};
    }
};

template <size_t Words>
struct Keys<PackedKey<Words>>
{
    using Key = PackedKey<Words>;
    static Key fromIndex(uint64_t i)
    {
        Key key;
        key.words[Words - 1] = i;
        return key;
    }
    static Key random(std::mt19937_64& random)
    {
        Key key;
        for (auto& word : key.words)
        {
            word = random() % 64;  // few values per word: many keys share most words
        }
        return key;
    }
    static Key collidingInLowBits(uint64_t i)
    {
        Key key;
        key.words[0] = (i % 4096) << 52;
        return key;
    }
    static std::vector<Key> extremes()
    {
        Key zero;
        Key ones;
        ones.words.fill(~uint64_t{0});
        Key mixed;
        mixed.words[0] = ~uint64_t{0};
        return {zero, ones, mixed, fromIndex(1)};
    }
};

template <typename KeyType, typename TableType>
struct Case
{
    using Key = KeyType;
    using Table = TableType;
};

using SavedHashMap64 = HashTable<HashMapCellWithSavedHash<uint64_t, uint64_t, IntHash>, IntHash>;
using HighLoadMap = HashMap<uint64_t, uint64_t, IntHash, HashTableGrower<4, 75>>;

using MapCases =
    ::testing::Types<Case<uint64_t, HashMap<uint64_t, uint64_t>>,
                     Case<uint32_t, HashMap<uint32_t, uint64_t>>,
                     Case<int64_t, HashMap<int64_t, uint64_t>>,
                     Case<int32_t, HashMap<int32_t, uint64_t>>, Case<uint64_t, SavedHashMap64>,
                     Case<uint64_t, HighLoadMap>, Case<PackedKey16, HashMap<PackedKey16, uint64_t>>,
                     Case<PackedKey32, HashMap<PackedKey32, uint64_t>>,
                     Case<uint64_t, TwoLevelHashMap<uint64_t, uint64_t>>,
                     Case<PackedKey16, TwoLevelHashMap<PackedKey16, uint64_t>>>;

template <typename T>
class HashMapTest : public ::testing::Test
{
protected:
    using Key = typename T::Key;
    using Table = typename T::Table;
    using Oracle = std::unordered_map<Key, uint64_t>;

    /// Adds `value` to the key's mapped value in both table and oracle.
    static void add(Table& table, Oracle& oracle, const Key& key, uint64_t value)
    {
        bool inserted;
        auto* cell = table.emplace(key, inserted);
        EXPECT_EQ(inserted, oracle.find(key) == oracle.end());
        cell->mapped() += value;
        oracle[key] += value;
    }

    static void expectSame(const Table& table, const Oracle& oracle)
    {
        EXPECT_EQ(table.size(), oracle.size());
        EXPECT_EQ((testing::contentsOf<Table, Key, uint64_t>(table)), oracle);
        for (const auto& [key, value] : oracle)
        {
            const auto* cell = table.find(key);
            ASSERT_NE(cell, nullptr);
            EXPECT_EQ(cell->mapped(), value);
        }
    }
};
TYPED_TEST_SUITE(HashMapTest, MapCases);

TYPED_TEST(HashMapTest, RandomKeysMatchTheOracle)
{
    using K = Keys<typename TestFixture::Key>;
    typename TestFixture::Table table;
    typename TestFixture::Oracle oracle;
    std::mt19937_64 random(42);
    for (int i = 0; i < 200000; ++i)
    {
        TestFixture::add(table, oracle, K::random(random), i);
    }
    TestFixture::expectSame(table, oracle);
    // Absent keys stay absent.
    for (int i = 0; i < 1000; ++i)
    {
        const auto key = K::random(random);
        EXPECT_EQ(table.find(key) != nullptr, oracle.count(key) == 1);
    }
}

TYPED_TEST(HashMapTest, SequentialAndLowBitCollidingKeys)
{
    using K = Keys<typename TestFixture::Key>;
    typename TestFixture::Table table;
    typename TestFixture::Oracle oracle;
    for (uint64_t i = 0; i < 100000; ++i)
    {
        TestFixture::add(table, oracle, K::fromIndex(i), 1);
        TestFixture::add(table, oracle, K::collidingInLowBits(i), 2);
    }
    TestFixture::expectSame(table, oracle);
}

TYPED_TEST(HashMapTest, ZeroAndExtremeKeys)
{
    using K = Keys<typename TestFixture::Key>;
    typename TestFixture::Table table;
    typename TestFixture::Oracle oracle;
    EXPECT_EQ(table.find(typename TestFixture::Key{}), nullptr);
    for (int round = 0; round < 3; ++round)
    {
        for (const auto& key : K::extremes())
        {
            TestFixture::add(table, oracle, key, 10 + round);
        }
    }
    TestFixture::expectSame(table, oracle);
    // The zero key alone.
    typename TestFixture::Table only_zero;
    typename TestFixture::Oracle only_zero_oracle;
    TestFixture::add(only_zero, only_zero_oracle, typename TestFixture::Key{}, 5);
    TestFixture::expectSame(only_zero, only_zero_oracle);
}

TYPED_TEST(HashMapTest, MergeEqualsTheUnion)
{
    using K = Keys<typename TestFixture::Key>;
    typename TestFixture::Table left;
    typename TestFixture::Table right;
    typename TestFixture::Oracle left_oracle;
    typename TestFixture::Oracle right_oracle;
    std::mt19937_64 random(1);
    for (uint64_t i = 0; i < 50000; ++i)
    {
        TestFixture::add(left, left_oracle, K::fromIndex(random() % 60000), 1);
        TestFixture::add(right, right_oracle, K::fromIndex(random() % 60000 + 30000), 3);
    }
    TestFixture::add(right, right_oracle, typename TestFixture::Key{}, 7);
    mergeTables(left, right, [](uint64_t& target, uint64_t source) { target += source; });
    for (const auto& [key, value] : right_oracle)
    {
        left_oracle[key] += value;
    }
    TestFixture::expectSame(left, left_oracle);
}

/// Single → two-level conversion for every single-level map kind.
template <typename Single>
void expectConversionKeepsEverything()
{
    using Key = typename Single::Key;
    Single single;
    std::unordered_map<Key, uint64_t> oracle;
    std::mt19937_64 random(9);
    for (int i = 0; i < 100000; ++i)
    {
        const Key key = Keys<Key>::random(random);
        bool inserted;
        single.emplace(key, inserted)->mapped() += i;
        oracle[key] += i;
    }
    bool inserted;
    single.emplace(Key{}, inserted)->mapped() += 1;
    oracle[Key{}] += 1;

    TwoLevelHashTable<Single> two_level(single);
    EXPECT_EQ(two_level.size(), oracle.size());
    EXPECT_EQ((testing::contentsOf<decltype(two_level), Key, uint64_t>(two_level)), oracle);
    // Every key sits in the bucket its hash names.
    for (size_t b = 0; b < two_level.kBucketCount; ++b)
    {
        two_level.bucket(b).forEachCell(
            [&](const auto& cell) { EXPECT_EQ(two_level.bucketOf(two_level.cellHash(cell)), b); });
    }
}

TEST(TwoLevelConversion, KeepsEveryKeyAndValue)
{
    expectConversionKeepsEverything<HashMap<uint64_t, uint64_t>>();
    expectConversionKeepsEverything<SavedHashMap64>();
    expectConversionKeepsEverything<HashMap<PackedKey16, uint64_t>>();
    expectConversionKeepsEverything<HashMap<PackedKey32, uint64_t>>();
}

TEST(TwoLevelHashMap, BucketsAreBalancedForSequentialKeys)
{
    TwoLevelHashMap<uint64_t, uint64_t> table;
    const uint64_t keys = 256 * 1000;
    for (uint64_t i = 1; i <= keys; ++i)
    {
        bool inserted;
        table.emplace(i, inserted);
    }
    for (size_t b = 0; b < table.kBucketCount; ++b)
    {
        // Expect 1000 per bucket; a good hash stays well within +-25%.
        EXPECT_NEAR(static_cast<double>(table.bucket(b).size()), 1000.0, 250.0) << "bucket " << b;
    }
}

TEST(HashTable, IteratorVisitsEveryElementOnce)
{
    HashMap<uint64_t, uint64_t> table;
    std::unordered_map<uint64_t, uint64_t> oracle;
    for (uint64_t i = 0; i < 5000; ++i)
    {
        bool inserted;
        table.emplace(i * 7, inserted)->mapped() = i;
        oracle[i * 7] = i;
    }
    std::unordered_map<uint64_t, uint64_t> seen;
    for (auto& cell : table)
    {
        EXPECT_TRUE(seen.emplace(cell.key(), cell.mapped()).second);
    }
    EXPECT_EQ(seen, oracle);
    HashMap<uint64_t, uint64_t> empty;
    EXPECT_TRUE(empty.begin() == empty.end());
}

TEST(HashTable, CollectElementsCopiesEveryElementOnceInFullBatches)
{
    // The zero key, a batch size that does not divide the element count, and an empty table.
    for (uint64_t elements : {0, 1, 63, 64, 65, 5000})
    {
        HashMap<uint64_t, uint64_t> table;
        std::unordered_map<uint64_t, uint64_t> oracle;
        for (uint64_t i = 0; i < elements; ++i)
        {
            bool inserted;
            table.emplace(i * 7, inserted)->mapped() = i + 1;
            oracle[i * 7] = i + 1;
        }
        constexpr size_t kBatch = 64;
        std::unordered_map<uint64_t, uint64_t> seen;
        std::vector<size_t> batch_sizes;
        table.collectElements<kBatch>(
            [&](const uint64_t* keys, const uint64_t* mapped, size_t count)
            {
                batch_sizes.push_back(count);
                for (size_t i = 0; i < count; ++i)
                {
                    EXPECT_TRUE(seen.emplace(keys[i], mapped[i]).second) << keys[i];
                }
            });
        EXPECT_EQ(seen, oracle) << elements << " elements";
        // Every batch but the last is full; none is empty.
        for (size_t b = 0; b < batch_sizes.size(); ++b)
        {
            EXPECT_EQ(batch_sizes[b],
                      b + 1 < batch_sizes.size() ? kBatch : (elements - 1) % kBatch + 1);
        }
        EXPECT_EQ(batch_sizes.size(), (elements + kBatch - 1) / kBatch);
    }
}

TEST(HashTable, ReserveAvoidsGrowth)
{
    HashMap<uint64_t, uint64_t> table;
    table.reserve(100000);
    const size_t grows_after_reserve = table.growCount();
    for (uint64_t i = 1; i <= 100000; ++i)
    {
        bool inserted;
        table.emplace(i, inserted);
    }
    EXPECT_EQ(table.growCount(), grows_after_reserve);
    EXPECT_EQ(table.size(), 100000u);
}

TEST(HashTableGrower, MapsStaySparseWhileSmallAndSetsDoNot)
{
    // Every capacity a growing map and set pass through holds the keys within the load its
    // grower allows: at most 12 % up to 2^12 cells for maps, 50 % otherwise.
    HashMap<uint64_t, uint64_t> map;
    HashSet<uint64_t> set;
    for (uint64_t key = 1; key <= 100000; ++key)
    {
        bool inserted;
        map.emplace(key, inserted);
        set.emplace(key, inserted);
        const size_t map_percent = map.capacity() <= (size_t{1} << 12) ? 12 : 50;
        ASSERT_LE(map.size() * 100, map.capacity() * map_percent) << key;
        ASSERT_LE(set.size() * 100, set.capacity() * 50) << key;
        if (key == 1000)
        {
            // 1000 keys: past the sparse limit the map grows 4x into 2^14 cells (6 % load);
            // the set stays at 2^12 cells (24 %).
            EXPECT_EQ(map.capacity(), size_t{1} << 14);
            EXPECT_EQ(set.capacity(), size_t{1} << 12);
        }
    }
    EXPECT_EQ(map.capacity(), size_t{1} << 18);
}

TEST(HashTable, ClearEmptiesTheTable)
{
    HashMap<uint64_t, uint64_t> table;
    bool inserted;
    for (uint64_t i = 0; i < 1000; ++i)
    {
        table.emplace(i, inserted);
    }
    table.clear();
    EXPECT_TRUE(table.empty());
    EXPECT_EQ(table.find(0), nullptr);
    EXPECT_EQ(table.find(5), nullptr);
    table.emplace(5, inserted);
    EXPECT_TRUE(inserted);
}

TEST(HashTable, MoveKeepsContents)
{
    HashMap<uint64_t, uint64_t> source;
    bool inserted;
    source.emplace(0, inserted)->mapped() = 1;
    source.emplace(42, inserted)->mapped() = 2;
    HashMap<uint64_t, uint64_t> target(std::move(source));
    EXPECT_EQ(target.size(), 2u);
    EXPECT_EQ(target.find(42)->mapped(), 2u);
    EXPECT_EQ(target.find(0)->mapped(), 1u);
}

/// Sets: single-level, two-level and saved-hash variants against std::unordered_set.
template <typename Set>
void expectSetMatchesOracle()
{
    using Key = typename Set::Key;
    Set left;
    Set right;
    std::unordered_set<Key> left_oracle;
    std::unordered_set<Key> right_oracle;
    std::mt19937_64 random(3);
    for (int i = 0; i < 100000; ++i)
    {
        bool inserted;
        const Key a = Keys<Key>::fromIndex(random() % 80000);
        left.emplace(a, inserted);
        EXPECT_EQ(inserted, left_oracle.insert(a).second);
        const Key b = Keys<Key>::collidingInLowBits(random() % 5000);
        right.emplace(b, inserted);
        EXPECT_EQ(inserted, right_oracle.insert(b).second);
    }
    EXPECT_EQ((testing::keysOf<Set, Key>(left)), left_oracle);
    mergeSets(left, right);
    left_oracle.insert(right_oracle.begin(), right_oracle.end());
    EXPECT_EQ(left.size(), left_oracle.size());
    EXPECT_EQ((testing::keysOf<Set, Key>(left)), left_oracle);
}

TEST(HashSet, MatchesTheOracle)
{
    expectSetMatchesOracle<HashSet<uint64_t>>();
    expectSetMatchesOracle<HashSet<uint32_t>>();
    expectSetMatchesOracle<HashSet<PackedKey16>>();
    expectSetMatchesOracle<TwoLevelHashSet<uint64_t>>();
    expectSetMatchesOracle<TwoLevelHashSet<PackedKey32>>();
}

TEST(HashSet, ConversionAndMixedLevelMerge)
{
    HashSet<uint64_t> single;
    TwoLevelHashSet<uint64_t> two_level;
    std::unordered_set<uint64_t> oracle;
    for (uint64_t i = 0; i < 30000; ++i)
    {
        bool inserted;
        single.emplace(i * 3, inserted);
        two_level.emplace(i * 5, inserted);
        oracle.insert(i * 3);
        oracle.insert(i * 5);
    }
    TwoLevelHashSet<uint64_t> converted(single);
    mergeSets(converted, two_level);
    EXPECT_EQ((testing::keysOf<decltype(converted), uint64_t>(converted)), oracle);
    // Bucket-by-bucket merge gives the same union as the whole-table merge.
    TwoLevelHashSet<uint64_t> by_bucket(single);
    for (size_t b = 0; b < by_bucket.kBucketCount; ++b)
    {
        mergeSets(by_bucket.bucket(b), two_level.bucket(b));
    }
    EXPECT_EQ((testing::keysOf<decltype(by_bucket), uint64_t>(by_bucket)), oracle);
}

}  // namespace
}  // namespace granary

namespace granary
{
namespace
{

/// emplaceBatch (the aggregator's path: batched hashing, prefetching, emplaceMany) against the
/// oracle, across growth from tiny to larger-than-cache tables and with zero keys mixed in.
template <typename Table>
void expectBatchCountsMatch(size_t rows, size_t distinct)
{
    std::mt19937_64 random(rows + distinct);
    std::vector<uint64_t> keys(rows);
    for (auto& key : keys)
    {
        key = (random() % distinct) * 0x9E3779B97F4A7C15ULL;  // includes the zero key
    }
    Table table;
    std::unordered_map<uint64_t, uint64_t> oracle;
    size_t inserted_rows = 0;
    emplaceBatch(table, keys.data(), keys.size(),
                 [&](auto* cell, bool inserted, size_t row)
                 {
                     EXPECT_EQ(cell->key(), keys[row]);
                     ++cell->mapped();
                     inserted_rows += inserted ? 1 : 0;
                 });
    for (uint64_t key : keys)
    {
        ++oracle[key];
    }
    EXPECT_EQ(inserted_rows, oracle.size());
    EXPECT_EQ((testing::contentsOf<Table, uint64_t, uint64_t>(table)), oracle);
}

TEST(EmplaceBatch, MatchesTheOracleForEveryTableKind)
{
    for (size_t distinct : {1, 7, 1000, 200000})
    {
        expectBatchCountsMatch<HashMap<uint64_t, uint64_t>>(300000, distinct);
        expectBatchCountsMatch<TwoLevelHashMap<uint64_t, uint64_t>>(300000, distinct);
        expectBatchCountsMatch<SavedHashMap64>(300000, distinct);
    }
}

/// Sends every key to one of three home slots, so most keys live away from home.
struct ThreeHomesHash
{
    uint64_t operator()(uint64_t key) const { return (key % 3) * 0x0101010101010101ULL; }
};

TEST(EmplaceBatch, KeysAwayFromTheirHomeSlotMatchTheOracle)
{
    // A cache-resident table hands over keys found at home after one test; the others take
    // the full probe. Here nearly every key is displaced, the zero key included.
    for (size_t distinct : {2, 3, 50, 600})
    {
        expectBatchCountsMatch<HashMap<uint64_t, uint64_t, ThreeHomesHash>>(20000, distinct);
    }
}

/// Records what emplaceBatch hands over for keys[row] and checks the contract callers rely on:
/// every row once, each key's rows in row order, its first row with inserted = true.
template <typename Key>
class RowContract
{
public:
    explicit RowContract(const std::vector<Key>& keys) : keys_(keys), calls_(keys.size(), 0) {}

    void record(bool inserted, size_t row)
    {
        ++calls_[row];
        rows_of_[keys_[row]].push_back(row);
        if (inserted)
        {
            EXPECT_TRUE(inserted_at_.emplace(keys_[row], row).second);
        }
    }

    void expectKept()
    {
        EXPECT_EQ(std::count(calls_.begin(), calls_.end(), 1), static_cast<long>(keys_.size()));
        for (const auto& [key, rows] : rows_of_)
        {
            EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end())) << key;
            ASSERT_TRUE(inserted_at_.count(key)) << key;
            EXPECT_EQ(inserted_at_[key], rows.front()) << key;
        }
    }

private:
    const std::vector<Key>& keys_;
    std::vector<int> calls_;
    std::unordered_map<Key, std::vector<size_t>> rows_of_;
    std::unordered_map<Key, size_t> inserted_at_;
};

TEST(EmplaceBatch, EachKeysRowsArriveInRowOrderAndItsFirstRowInserts)
{
    // The contract callers rely on is per key: its rows in row order, the first with
    // inserted = true. Keys repeat across batches, some collide into the same home slot.
    for (size_t distinct : {1, 7, 1000, 5000, 200000})
    {
        std::mt19937_64 random(distinct);
        std::vector<uint64_t> keys(100000);
        for (auto& key : keys)
        {
            key = random() % distinct;  // includes the zero key
        }
        HashMap<uint64_t, uint64_t> table;
        RowContract<uint64_t> contract(keys);
        emplaceBatch(table, keys.data(), keys.size(),
                     [&](auto* cell, bool inserted, size_t row)
                     {
                         ASSERT_EQ(cell->key(), keys[row]);
                         contract.record(inserted, row);
                     });
        contract.expectKept();
    }
}

/// String batches are taken class by class of key length: every row must still be handed over
/// once, each key's rows in row order with its first one inserting, and the counts must match.
template <typename Table>
void expectStringBatchKeepsTheRowContract()
{
    std::mt19937_64 random(4);
    std::vector<std::string> storage(100000);
    for (auto& s : storage)
    {
        // Lengths in every class (empty, 1-8, ..., 65-128, longer), some ending in NUL.
        const size_t length = random() % 7 == 0 ? random() % 300 : random() % 140;
        s = std::to_string(random() % 5000);
        s.resize(std::max(length, s.size()), static_cast<char>('a' + length % 26));
        if (random() % 50 == 0)
        {
            s.push_back('\0');
        }
        if (random() % 100 == 0)
        {
            s.clear();
        }
    }
    std::vector<std::string_view> keys(storage.begin(), storage.end());
    Arena arena;
    Table table(&arena);
    std::unordered_map<std::string, uint64_t> oracle;
    RowContract<std::string_view> contract(keys);
    emplaceBatch(table, keys.data(), keys.size(),
                 [&](uint64_t* count, bool inserted, size_t row)
                 {
                     ++*count;
                     contract.record(inserted, row);
                 });
    for (const auto& s : storage)
    {
        ++oracle[s];
    }
    EXPECT_EQ((testing::stringContentsOf<decltype(table), uint64_t>(table)), oracle);
    contract.expectKept();
}

TEST(EmplaceBatch, LengthClassOrderIsAStableSortByClass)
{
    std::mt19937_64 random(5);
    std::vector<std::string> storage(kHashBatchRows);
    for (size_t rows : {size_t{1}, size_t{7}, kHashBatchRows - 1, kHashBatchRows})
    {
        // All rows in one class (the fullest a cursor field gets), then lengths of every class.
        for (bool one_class : {true, false})
        {
            std::vector<std::string_view> keys;
            for (size_t i = 0; i < rows; ++i)
            {
                storage[i].assign(one_class ? 200 : random() % 300, 'k');
                keys.push_back(storage[i]);
            }
            std::vector<uint32_t> expected(rows);
            std::iota(expected.begin(), expected.end(), 0);
            std::stable_sort(expected.begin(), expected.end(),
                             [&](uint32_t a, uint32_t b)
                             {
                                 return internal::stringLengthClass(keys[a].size()) <
                                        internal::stringLengthClass(keys[b].size());
                             });
            std::vector<uint32_t> order(rows);
            internal::orderByLengthClass(keys.data(), rows, order.data());
            EXPECT_EQ(order, expected) << rows << " rows, one class: " << one_class;
        }
    }
}

TEST(EmplaceBatch, StringKeysOfEveryLengthClassKeepTheRowContract)
{
    expectStringBatchKeepsTheRowContract<StringHashMap<uint64_t>>();
    expectStringBatchKeepsTheRowContract<TwoLevelStringHashMap<uint64_t>>();
}

}  // namespace
}  // namespace granary
