#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "alloc/allocator_stats.h"

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
    EXPECT_EQ(readJemallocSizeOption("opt.dirty_decay_ms"), 5000u);
    EXPECT_EQ(readJemallocSizeOption("opt.muzzy_decay_ms"), 0u);
    EXPECT_EQ(readJemallocSizeOption("opt.oversize_threshold"), 0u);
}

TEST(Jemalloc, AsksForTransparentHugePages)
{
    if (builtWithoutJemalloc())
    {
        GTEST_SKIP() << "ASan/TSan builds use the sanitizer's allocator instead of jemalloc";
    }
    EXPECT_EQ(readJemallocStringOption("opt.thp"), "always");
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
