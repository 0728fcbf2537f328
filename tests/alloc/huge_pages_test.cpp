#include "alloc/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "alloc/arena.h"
#include "hashtables/allocator.h"
#include "tests/support/fresh_mapping.h"

namespace granary
{
namespace
{

/// Whether the kernel's map of this process marks the mapping that holds `address` for
/// transparent huge pages (`hg` among its VmFlags in /proc/self/smaps).
bool advisedHuge(const void* address)
{
    const auto at = reinterpret_cast<uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line))
    {
        uintptr_t start = 0;
        uintptr_t end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> start >> dash >> end && dash == '-')
        {
            inside = start <= at && at < end;
            continue;
        }
        if (inside && line.starts_with("VmFlags:"))
        {
            return (line + " ").find(" hg ") != std::string::npos;
        }
    }
    ADD_FAILURE() << "no mapping holds " << address;
    return false;
}

bool kernelHasTransparentHugePages()
{
    return std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled");
}

class HugePages : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!kernelHasTransparentHugePages())
        {
            GTEST_SKIP() << "this kernel has no transparent huge pages";
        }
    }
};

TEST_F(HugePages, OnlyTheWholeHugePagesInsideABlockAreAdvised)
{
    const test::FreshMapping mapping(4 * kHugePageBytes);
    char* block = mapping.data() + 4096;  // Starts past a boundary, ends before the fourth.
    adviseHugePages(block, 3 * kHugePageBytes);
    EXPECT_FALSE(advisedHuge(block));
    EXPECT_TRUE(advisedHuge(mapping.data() + kHugePageBytes));
    EXPECT_TRUE(advisedHuge(mapping.data() + 3 * kHugePageBytes - 1));
    EXPECT_FALSE(advisedHuge(mapping.data() + 3 * kHugePageBytes));
}

TEST_F(HugePages, ABlockWithoutAWholeHugePageIsLeftAlone)
{
    const test::FreshMapping mapping(2 * kHugePageBytes);
    char* block = mapping.data() + kHugePageBytes / 2;
    adviseHugePages(block, kHugePageBytes);  // Crosses a boundary, holds no whole huge page.
    EXPECT_FALSE(advisedHuge(block));
    EXPECT_FALSE(advisedHuge(mapping.data() + kHugePageBytes));
    adviseHugePages(nullptr, 0);
}

TEST_F(HugePages, HashTableCellsAndLargeArenaChunksAskForThem)
{
    const size_t bytes = 8 * kHugePageBytes;
    void* cells = ZeroedAllocator::allocate(bytes);
    EXPECT_TRUE(advisedHuge(static_cast<char*>(cells) + bytes / 2));
    ZeroedAllocator::deallocate(cells, bytes);

    Arena arena;
    char* states = arena.alloc(bytes);
    EXPECT_TRUE(advisedHuge(states + bytes / 2));
}

}  // namespace
}  // namespace granary
