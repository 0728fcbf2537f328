#include "engine/exec/query_condition_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "hashtables/hash.h"

namespace granary
{
namespace
{

constexpr uint64_t kTable = 7;

TEST(QueryConditionCacheEntry, StartsAllMayMatchAndClearsRangesAcrossWords)
{
    QueryConditionCacheEntry entry(200);
    EXPECT_EQ(entry.granuleCount(), 200u);
    for (size_t g = 0; g < 200; ++g)
    {
        EXPECT_TRUE(entry.mayMatch(g));
    }
    EXPECT_TRUE(entry.finalMarkMayMatch());

    const std::vector<GranuleRange> ranges = {{3, 4}, {60, 130}, {190, 500}};
    EXPECT_TRUE(entry.wouldChange(ranges, false));
    EXPECT_TRUE(entry.markNoMatch(ranges, false));
    EXPECT_FALSE(entry.wouldChange(ranges, false));
    EXPECT_FALSE(entry.markNoMatch(ranges, false));
    for (size_t g = 0; g < 200; ++g)
    {
        const bool cleared = g == 3 || (g >= 60 && g < 130) || g >= 190;
        EXPECT_EQ(entry.mayMatch(g), !cleared) << g;
    }
    EXPECT_TRUE(entry.finalMarkMayMatch());
    EXPECT_TRUE(entry.wouldChange({}, true));
    EXPECT_TRUE(entry.markNoMatch({}, true));
    EXPECT_FALSE(entry.finalMarkMayMatch());
}

/// Column values of one version of a part, a granule at a time.
struct PartVersion
{
    uint64_t part_id = 0;
    uint64_t version = 0;
    std::vector<std::vector<int32_t>> granules;
};

/// WHERE value BETWEEN low AND high.
struct RangeFilter
{
    int32_t low = 0;
    int32_t high = 0;

    bool matches(int32_t value) const { return value >= low && value <= high; }
    uint64_t hash() const
    {
        return hashing::hashWords(static_cast<uint64_t>(low), static_cast<uint64_t>(high));
    }
};

constexpr size_t kRowsPerGranule = 16;
/// Values of a granule stay within this distance of a random base, so most filters match
/// nothing in most granules and the cache has granules to skip.
constexpr int32_t kGranuleValueSpread = 40;
constexpr int32_t kValueDomain = 2000;

PartVersion makePart(uint64_t part_id, uint64_t version, size_t granule_count, std::mt19937& random)
{
    PartVersion part{part_id, version, {}};
    std::uniform_int_distribution<int32_t> base(0, kValueDomain - kGranuleValueSpread);
    std::uniform_int_distribution<int32_t> offset(0, kGranuleValueSpread);
    for (size_t g = 0; g < granule_count; ++g)
    {
        const int32_t granule_base = base(random);
        std::vector<int32_t> values(kRowsPerGranule);
        for (int32_t& value : values)
        {
            value = granule_base + offset(random);
        }
        part.granules.push_back(std::move(values));
    }
    return part;
}

struct ScanResult
{
    /// Row numbers of the part that pass the filter.
    std::vector<size_t> rows;
    size_t skipped_granules = 0;
};

/// With a cache, skips granules it rules out and records granules where nothing matched, as an
/// engine scan would.
template <typename Cache>
ScanResult scan(Cache* cache, const PartVersion& part, const RangeFilter& filter)
{
    const QueryConditionCacheKey key{kTable, part.part_id, part.version, filter.hash()};
    std::shared_ptr<const QueryConditionCacheEntry> entry = cache ? cache->read(key) : nullptr;
    ScanResult result;
    std::vector<GranuleRange> no_match;
    for (size_t g = 0; g < part.granules.size(); ++g)
    {
        if (entry && !entry->mayMatch(g))
        {
            ++result.skipped_granules;
            continue;
        }
        bool matched = false;
        for (size_t i = 0; i < kRowsPerGranule; ++i)
        {
            if (filter.matches(part.granules[g][i]))
            {
                result.rows.push_back(g * kRowsPerGranule + i);
                matched = true;
            }
        }
        if (matched)
        {
            continue;
        }
        if (!no_match.empty() && no_match.back().end == g)
        {
            ++no_match.back().end;
        }
        else
        {
            no_match.push_back({g, g + 1});
        }
    }
    if (cache)
    {
        cache->write(key, part.granules.size(), no_match, /*has_final_mark=*/true);
    }
    return result;
}

template <typename Cache>
class QueryConditionCacheTest : public ::testing::Test
{
};

using CacheStrategies =
    ::testing::Types<BasicQueryConditionCache<ConditionCacheUpdate::kExclusiveLock>,
                     BasicQueryConditionCache<ConditionCacheUpdate::kDoubleChecked>,
                     BasicQueryConditionCache<ConditionCacheUpdate::kAtomic>>;
TYPED_TEST_SUITE(QueryConditionCacheTest, CacheStrategies);

TYPED_TEST(QueryConditionCacheTest, RecordsGranulesWithoutMatches)
{
    TypeParam cache(1 << 20);
    const QueryConditionCacheKey key{kTable, 1, 1, 99};
    EXPECT_EQ(cache.read(key), nullptr);
    const std::vector<GranuleRange> ranges = {{0, 2}, {5, 6}};
    cache.write(key, 8, ranges, false);
    auto entry = cache.read(key);
    ASSERT_NE(entry, nullptr);
    for (size_t g = 0; g < 8; ++g)
    {
        EXPECT_EQ(entry->mayMatch(g), !(g < 2 || g == 5)) << g;
    }
    EXPECT_EQ(cache.read(QueryConditionCacheKey{kTable, 1, 2, 99}), nullptr);
    EXPECT_EQ(cache.read(QueryConditionCacheKey{kTable, 1, 1, 98}), nullptr);
}

TYPED_TEST(QueryConditionCacheTest, IgnoresWritesWithAnotherGranuleCount)
{
    TypeParam cache(1 << 20);
    const QueryConditionCacheKey key{kTable, 1, 1, 99};
    cache.write(key, 8, std::vector<GranuleRange>{{0, 1}}, false);
    cache.write(key, 4, std::vector<GranuleRange>{{1, 4}}, false);
    auto entry = cache.read(key);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->granuleCount(), 8u);
    EXPECT_TRUE(entry->mayMatch(1));
}

TYPED_TEST(QueryConditionCacheTest, EvictionKeepsTheByteBoundAndSparesReferencedEntries)
{
    constexpr size_t kMaxBytes = 16 * 1024;
    constexpr size_t kGranules = 1024;
    TypeParam cache(kMaxBytes);
    const QueryConditionCacheKey hot{kTable, 0, 0, 0};
    cache.write(hot, kGranules, std::vector<GranuleRange>{{0, 1}}, false);
    for (uint64_t part = 1; part <= 500; ++part)
    {
        cache.write(QueryConditionCacheKey{kTable, part, 0, 0}, kGranules,
                    std::vector<GranuleRange>{{0, 1}}, false);
        EXPECT_LE(cache.sizeInBytes(), kMaxBytes);
        ASSERT_NE(cache.read(hot), nullptr) << "after part " << part;
    }
    EXPECT_LT(cache.entryCount(), 500u);
    EXPECT_GT(cache.entryCount(), 1u);
}

TYPED_TEST(QueryConditionCacheTest, EntryLargerThanTheCacheIsNotStored)
{
    TypeParam cache(64);
    const QueryConditionCacheKey key{kTable, 1, 1, 1};
    cache.write(key, 100'000, std::vector<GranuleRange>{{0, 1}}, false);
    EXPECT_EQ(cache.read(key), nullptr);
    EXPECT_EQ(cache.sizeInBytes(), 0u);
}

TYPED_TEST(QueryConditionCacheTest, InvalidatePartDropsEveryVersionAndCondition)
{
    TypeParam cache(1 << 20);
    const std::vector<GranuleRange> ranges = {{0, 1}};
    const QueryConditionCacheKey a{kTable, 1, 1, 10};
    const QueryConditionCacheKey b{kTable, 1, 2, 11};
    const QueryConditionCacheKey other_part{kTable, 2, 1, 10};
    const QueryConditionCacheKey other_table{kTable + 1, 1, 1, 10};
    for (const auto& key : {a, b, other_part, other_table})
    {
        cache.write(key, 4, ranges, false);
    }
    cache.invalidatePart(kTable, 1);
    EXPECT_EQ(cache.read(a), nullptr);
    EXPECT_EQ(cache.read(b), nullptr);
    EXPECT_NE(cache.read(other_part), nullptr);
    EXPECT_NE(cache.read(other_table), nullptr);
    EXPECT_EQ(cache.entryCount(), 2u);
}

/// Property: over random data, filters and part versions, scans on several threads that share
/// a small (evicting) cache return exactly the rows of scans without a cache.
TYPED_TEST(QueryConditionCacheTest, ScansWithTheCacheEqualScansWithout)
{
    constexpr size_t kParts = 6;
    constexpr size_t kVersionsPerPart = 3;
    constexpr size_t kFilters = 12;
    constexpr size_t kThreads = 8;
    constexpr size_t kScansPerThread = 300;
    /// Room for a fraction of the (part version, filter) entries, so eviction runs throughout.
    constexpr size_t kCacheBytes = 12 * 1024;

    std::mt19937 random(20240611);
    std::vector<PartVersion> parts;
    for (uint64_t part = 0; part < kParts; ++part)
    {
        for (uint64_t version = 0; version < kVersionsPerPart; ++version)
        {
            parts.push_back(makePart(part, version, 50 + 40 * part, random));
        }
    }
    std::vector<RangeFilter> filters;
    std::uniform_int_distribution<int32_t> low(0, kValueDomain);
    std::uniform_int_distribution<int32_t> width(0, 150);
    for (size_t f = 0; f < kFilters; ++f)
    {
        const int32_t from = low(random);
        filters.push_back({from, from + width(random)});
    }

    TypeParam cache(kCacheBytes);
    std::vector<std::thread> threads;
    std::vector<size_t> mismatches(kThreads, 0);
    std::vector<size_t> skipped(kThreads, 0);
    for (size_t t = 0; t < kThreads; ++t)
    {
        threads.emplace_back(
            [&, t]
            {
                std::mt19937 thread_random(static_cast<uint32_t>(t));
                for (size_t s = 0; s < kScansPerThread; ++s)
                {
                    const PartVersion& part = parts[thread_random() % parts.size()];
                    const RangeFilter& filter = filters[thread_random() % filters.size()];
                    const ScanResult cached = scan(&cache, part, filter);
                    if (cached.rows != scan<TypeParam>(nullptr, part, filter).rows)
                    {
                        ++mismatches[t];
                    }
                    skipped[t] += cached.skipped_granules;
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    for (size_t t = 0; t < kThreads; ++t)
    {
        EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
        EXPECT_GT(skipped[t], 0u) << "thread " << t << " never used the cache";
    }
    EXPECT_LE(cache.sizeInBytes(), kCacheBytes);
    EXPECT_GT(cache.entryCount(), 0u);
}

}  // namespace
}  // namespace granary
