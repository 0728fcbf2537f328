#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "alloc/allocator_stats.h"

// Weak, as in alloc/allocator_stats.cpp: sanitizer builds link without jemalloc.
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace granary
{
namespace
{

bool builtWithoutJemalloc()
{
    return GRANARY_USE_JEMALLOC == 0;
}

TEST(Jemalloc, IsTheActiveAllocatorWithGranaryOptions)
{
    if (builtWithoutJemalloc())
    {
        GTEST_SKIP() << "ASan/TSan builds use the sanitizer's allocator instead of jemalloc";
    }
    ASSERT_TRUE(jemallocActive());
    EXPECT_EQ(readJemallocSizeOption("opt.lg_extent_max_active_fit"), 8u);
}

TEST(Jemalloc, DecayOptionsAreApplied)
{
    if (builtWithoutJemalloc())
    {
        GTEST_SKIP() << "ASan/TSan builds use the sanitizer's allocator instead of jemalloc";
    }
    // ssize_t options share size_t's width; the values are small and positive or zero.
    EXPECT_EQ(readJemallocSizeOption("opt.dirty_decay_ms"), 30000u);
    EXPECT_EQ(readJemallocSizeOption("opt.muzzy_decay_ms"), 0u);
    EXPECT_EQ(readJemallocSizeOption("opt.oversize_threshold"), 0u);
}

TEST(Jemalloc, LeavesTransparentHugePagesToTheMemoryThatAsks)
{
    if (builtWithoutJemalloc())
    {
        GTEST_SKIP() << "ASan/TSan builds use the sanitizer's allocator instead of jemalloc";
    }
    EXPECT_EQ(readJemallocStringOption("opt.thp"), "default");
}

TEST(Jemalloc, StatisticsFollowAllocations)
{
    if (builtWithoutJemalloc())
    {
        GTEST_SKIP() << "ASan/TSan builds use the sanitizer's allocator instead of jemalloc";
    }
    const auto before = readAllocatorStats();
    ASSERT_TRUE(before.has_value());
    const size_t bytes = 64 * 1024 * 1024;
    std::vector<char> block(bytes, 1);
    const auto during = readAllocatorStats();
    ASSERT_TRUE(during.has_value());
    EXPECT_GE(during->allocated_bytes, before->allocated_bytes + bytes);
    EXPECT_GE(during->resident_bytes, bytes);
    EXPECT_GE(during->active_bytes, during->allocated_bytes);
}

// Arena 0 is created before jemalloc reads malloc_conf: without Granary's correction it purges
// freed extents that coalesce past 8 MiB at once, so a query's tables come back as page faults.
TEST(Jemalloc, MainThreadKeepsCoalescedFreedExtentsForReuse)
{
    if (builtWithoutJemalloc())
    {
        GTEST_SKIP() << "ASan/TSan builds use the sanitizer's allocator instead of jemalloc";
    }
    unsigned arena = 1;
    size_t length = sizeof(arena);
    ASSERT_EQ(mallctl("thread.arena", &arena, &length, nullptr, 0), 0);
    ASSERT_EQ(arena, 0u) << "the test thread is expected to use arena 0, the one the bug is in";
    // Start from no dirty pages, so that decay has nothing older to purge meanwhile.
    ASSERT_EQ(mallctl("arena.0.purge", nullptr, nullptr, nullptr, 0), 0);
    constexpr size_t kBlocks = 256;
    constexpr size_t kBlockBytes = 256 * 1024;  // a query's bucket tables: 64 MiB in all
    std::vector<char*> blocks;
    for (size_t i = 0; i < kBlocks; ++i)
    {
        blocks.push_back(static_cast<char*>(std::malloc(kBlockBytes)));
        ASSERT_NE(blocks.back(), nullptr);
        std::fill(blocks.back(), blocks.back() + kBlockBytes, static_cast<char>(i));
    }
    for (char* block : blocks)
    {
        std::free(block);
    }
    ASSERT_TRUE(readAllocatorStats().has_value());  // refreshes jemalloc's statistics
    const auto dirty_pages = readJemallocSizeOption("stats.arenas.0.pdirty");
    const auto page_bytes = readJemallocSizeOption("arenas.page");
    ASSERT_TRUE(dirty_pages.has_value() && page_bytes.has_value());
    EXPECT_GE(*dirty_pages * *page_bytes, kBlocks * kBlockBytes);
}

TEST(Jemalloc, ReportsAbsenceCleanlyUnderSanitizers)
{
    if (!builtWithoutJemalloc())
    {
        GTEST_SKIP() << "only meaningful without jemalloc";
    }
    EXPECT_FALSE(jemallocActive());
    EXPECT_FALSE(readAllocatorStats().has_value());
}

}  // namespace
}  // namespace granary
