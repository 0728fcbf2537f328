#include "engine/observe/resource_snapshot.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <memory>

#include "alloc/huge_pages.h"

namespace granary
{
namespace
{

/// Large enough to be served by fresh pages, so touching it faults.
constexpr size_t kTouchedBytes = 64 * 1024 * 1024;
/// The largest page a fault may bring in, where the kernel backs the block with transparent huge
/// pages.
constexpr size_t kLargestPageBytes = kHugePageBytes;

TEST(ResourceSnapshot, DifferenceSeesAllocationAndPageFaults)
{
    const ResourceSnapshot before = ResourceSnapshot::take();
    auto block = std::make_unique<char[]>(kTouchedBytes);
    std::memset(block.get(), 1, kTouchedBytes);
    const ResourceSnapshot after = ResourceSnapshot::take();

    const ResourceUsage usage = after - before;
    EXPECT_GE(usage.minor_page_faults + usage.major_page_faults,
              kTouchedBytes / kLargestPageBytes / 2);
    EXPECT_GE(after.peak_resident_bytes, kTouchedBytes);
    EXPECT_EQ(usage.allocator_stats_available, GRANARY_USE_JEMALLOC != 0);
    if (usage.allocator_stats_available)
    {
        EXPECT_GE(usage.allocated_bytes, static_cast<int64_t>(kTouchedBytes));
        EXPECT_GE(usage.resident_bytes, static_cast<int64_t>(kTouchedBytes / 2));
    }
}

}  // namespace
}  // namespace granary
