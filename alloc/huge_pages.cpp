#include "alloc/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace granary
{

void adviseHugePages(void* memory, size_t bytes) noexcept
{
    constexpr uintptr_t kMask = ~uintptr_t{kHugePageBytes - 1};
    const uintptr_t start = reinterpret_cast<uintptr_t>(memory);
    const uintptr_t first = (start + kHugePageBytes - 1) & kMask;
    const uintptr_t last = (start + bytes) & kMask;
    if (last > first)
    {
        // Advice only: a kernel that refuses it leaves 4 KiB pages, which are still correct.
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
}

}  // namespace granary
