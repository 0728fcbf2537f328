#include "alloc/arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace granary
{
namespace
{

TEST(Arena, AllocationsAreAlignedAndDisjoint)
{
    Arena arena(64);
    std::vector<std::pair<char*, size_t>> blocks;
    std::mt19937_64 random(7);
    for (int i = 0; i < 5000; ++i)
    {
        const size_t size = random() % 300 + 1;
        const size_t alignment = size_t{1} << (random() % 7);
        char* block = arena.alignedAlloc(size, alignment);
        ASSERT_EQ(reinterpret_cast<uintptr_t>(block) % alignment, 0u);
        std::memset(block, i & 0xFF, size);
        blocks.emplace_back(block, size);
    }
    for (size_t i = 0; i < blocks.size(); ++i)
    {
        for (size_t j = 0; j < blocks[i].second; ++j)
        {
            ASSERT_EQ(static_cast<unsigned char>(blocks[i].first[j]), i & 0xFF);
        }
    }
}

TEST(Arena, InsertCopiesBytesIncludingNul)
{
    Arena arena;
    const std::string original("a\0b\0c", 5);
    std::string_view copy = arena.insert(original);
    EXPECT_EQ(copy, original);
    EXPECT_NE(copy.data(), original.data());
    EXPECT_TRUE(arena.insert({}).empty());
}

TEST(Arena, ChunksDoubleUpToTheCapThenGrowLinearly)
{
    const size_t initial = 1024;
    const size_t cap = 16 * 1024;
    Arena arena(initial, cap);
    // Fill 40 chunks' worth: doubling 1K..16K takes 5 chunks, the rest are 16K each.
    const size_t total = 1024 * 1024;
    for (size_t used = 0; used < total; used += 512)
    {
        arena.alloc(512);
    }
    EXPECT_EQ(arena.bytesUsed(), total);
    EXPECT_GE(arena.bytesReserved(), total);
    // Linear growth past the cap bounds the waste to about one chunk plus headers.
    EXPECT_LT(arena.bytesReserved(), total + 2 * cap);
    const size_t doubling_chunks = 5;
    EXPECT_NEAR(static_cast<double>(arena.chunkCount()),
                doubling_chunks + static_cast<double>(total - 31 * 1024) / cap, 2.0);
}

TEST(Arena, LargeAllocationGetsItsOwnChunk)
{
    Arena arena(256);
    char* big = arena.alloc(10 * 1024 * 1024);
    std::memset(big, 1, 10 * 1024 * 1024);
    EXPECT_GE(arena.bytesReserved(), 10u * 1024 * 1024);
    EXPECT_EQ(arena.bytesUsed(), 10u * 1024 * 1024);
}

TEST(Arena, MoveTransfersOwnership)
{
    Arena source;
    std::string_view copy = source.insert("hello");
    Arena target(std::move(source));
    EXPECT_EQ(copy, "hello");
    EXPECT_EQ(target.bytesUsed(), 5u);
    EXPECT_EQ(source.bytesUsed(), 0u);
    EXPECT_EQ(source.bytesReserved(), 0u);
    // A moved-from arena is usable again.
    EXPECT_EQ(source.insert("x"), "x");
}

}  // namespace
}  // namespace granary
