#include "hashtables/allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "alloc/memory_tracker.h"
#include "hashtables/hash_map.h"

namespace granary
{
namespace
{

/// Large enough for jemalloc to serve from its page-granular extents (and huge pages).
constexpr size_t kLargeBytes = size_t{2} << 20;

bool allZero(const void* memory, size_t bytes)
{
    const auto* p = static_cast<const unsigned char*>(memory);
    for (size_t i = 0; i < bytes; ++i)
    {
        if (p[i] != 0)
        {
            return false;
        }
    }
    return true;
}

// Small and large arrays come zeroed, also when they reuse memory that was written and freed
// (jemalloc hands freed extents back out: the allocator must clear them).
TEST(ZeroedAllocator, ArraysAreZeroedAlsoWhenMemoryIsReused)
{
    for (size_t bytes : {size_t{64}, kLargeBytes - 16, kLargeBytes, kLargeBytes * 3 + 4096})
    {
        for (int round = 0; round < 2; ++round)
        {
            void* memory = ZeroedAllocator::allocate(bytes);
            ASSERT_NE(memory, nullptr);
            EXPECT_TRUE(allZero(memory, bytes)) << bytes;
            std::memset(memory, 0xAB, bytes);
            ZeroedAllocator::deallocate(memory, bytes);
        }
    }
}

TEST(ZeroedAllocator, ChargesAndReleasesTheQueryTracker)
{
    MemoryTracker tracker;
    {
        MemoryTrackerScope scope(&tracker);
        void* memory = ZeroedAllocator::allocate(kLargeBytes * 2);
        EXPECT_GE(tracker.usedBytes(), kLargeBytes * 2);
        ZeroedAllocator::deallocate(memory, kLargeBytes * 2);
    }
    EXPECT_EQ(tracker.usedBytes(), 0u);
}

// A table that grows to several MiB keeps every count (oracle: row index arithmetic).
TEST(ZeroedAllocator, TableGrowingPastTheThresholdKeepsItsContents)
{
    HashMap<uint64_t, uint64_t> table;
    const uint64_t keys = 400'000;  // 16-byte cells: the array passes 2 MiB on the way
    for (uint64_t round = 0; round < 2; ++round)
    {
        for (uint64_t key = 0; key < keys; ++key)
        {
            bool inserted;
            ++table.emplace(key * 0x9E3779B97F4A7C15ULL, inserted)->mapped();
        }
    }
    EXPECT_GE(table.bufferBytes(), kLargeBytes);
    ASSERT_EQ(table.size(), keys);
    for (uint64_t key = 0; key < keys; ++key)
    {
        const auto* cell = table.find(key * 0x9E3779B97F4A7C15ULL);
        ASSERT_NE(cell, nullptr);
        EXPECT_EQ(cell->mapped(), 2u);
    }
}

}  // namespace
}  // namespace granary
