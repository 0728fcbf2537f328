#include "alloc/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace granary
{
namespace
{

/// The size of a transparent huge page on x86-64 and of the common arm64 configuration.
constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;

}  // namespace

void adviseHugePages(void* memory, size_t bytes) noexcept
{
    const uintptr_t start = reinterpret_cast<uintptr_t>(memory);
    const uintptr_t first = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    const uintptr_t last = (start + bytes) & ~(kHugePageBytes - 1);
    if (last > first)
    {
        // Advice only: a kernel that refuses it leaves 4 KiB pages, which are still correct.
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
}

}  // namespace granary
