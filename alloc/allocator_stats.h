#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace granary
{

/// Process-wide allocator figures, read from jemalloc through mallctl.
struct AllocatorStats
{
    size_t allocated_bytes = 0;  ///< Bytes in live allocations.
    size_t active_bytes = 0;     ///< Bytes in active pages (allocated rounded up to pages).
    size_t resident_bytes = 0;   ///< Bytes of allocator memory resident in RAM.
    size_t mapped_bytes = 0;     ///< Bytes in extents mapped by the allocator.
    size_t retained_bytes = 0;   ///< Bytes unmapped-but-retained virtual memory.
};

/// True when jemalloc is the process allocator (not the case under ASan/TSan builds).
bool jemallocActive();

/// Current statistics, or nullopt when jemalloc is not the allocator.
std::optional<AllocatorStats> readAllocatorStats();

/// Reads a size_t-valued jemalloc option, such as "opt.lg_extent_max_active_fit".
std::optional<size_t> readJemallocSizeOption(const std::string& name);

/// Writes a size_t-valued jemalloc setting, such as "arena.0.oversize_threshold"; false where
/// jemalloc is not the allocator or refuses the name (an arena not created yet).
bool writeJemallocSizeSetting(const std::string& name, size_t value);

/// Reads a string-valued jemalloc option or property, such as "version".
std::optional<std::string> readJemallocStringOption(const std::string& name);

}  // namespace granary
