#pragma once

#include <cstdint>

namespace granary
{

struct ResourceUsage;

/// Process-wide allocator and paging figures at one moment; the difference of two taken around
/// a query is the query's ResourceUsage (concurrent queries' activity included).
struct ResourceSnapshot
{
    /// False when jemalloc is not the allocator (ASan/TSan builds): the byte figures are zero.
    bool allocator_stats_available = false;
    uint64_t allocated_bytes = 0;  ///< Bytes in live allocations.
    uint64_t active_bytes = 0;     ///< Bytes in pages holding live allocations.
    uint64_t resident_bytes = 0;   ///< Allocator memory resident in RAM.
    uint64_t minor_page_faults = 0;
    uint64_t major_page_faults = 0;
    uint64_t peak_resident_bytes = 0;  ///< The process's peak resident set so far (VmHWM).

    static ResourceSnapshot take();
};

/// What changed between two snapshots; byte figures may shrink, so they are signed.
struct ResourceUsage
{
    bool allocator_stats_available = false;
    int64_t allocated_bytes = 0;
    int64_t active_bytes = 0;
    int64_t resident_bytes = 0;
    uint64_t minor_page_faults = 0;
    uint64_t major_page_faults = 0;
    /// How much the process's peak resident set grew.
    uint64_t peak_resident_growth_bytes = 0;
};

ResourceUsage operator-(const ResourceSnapshot& after, const ResourceSnapshot& before);

}  // namespace granary
