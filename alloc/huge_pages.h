#pragma once

#include <cstddef>

namespace granary
{

/// The transparent huge page of x86-64 and arm64 kernels with 4 KiB base pages.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// Asks the kernel to back the whole 2 MiB pages inside [memory, memory + bytes) with
/// transparent huge pages (MADV_HUGEPAGE; nothing where THP is off or the block holds no whole
/// huge page). For memory read at random and larger than the TLB covers in 4 KiB pages: hash
/// table cells and aggregate states. jemalloc does not ask for all of its memory
/// (jemalloc_config.cpp): streams written to 256 buckets at once ran up to 1.8x slower, by
/// layout, on huge pages.
void adviseHugePages(void* memory, size_t bytes) noexcept;

}  // namespace granary
