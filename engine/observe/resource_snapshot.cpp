#include "engine/observe/resource_snapshot.h"

#include <sys/resource.h>

#include "alloc/allocator_stats.h"

namespace granary
{
namespace
{

/// getrusage reports ru_maxrss in kibibytes on Linux.
constexpr uint64_t kBytesPerRusageUnit = 1024;

int64_t signedDifference(uint64_t after, uint64_t before)
{
    return static_cast<int64_t>(after) - static_cast<int64_t>(before);
}

}  // namespace

ResourceSnapshot ResourceSnapshot::take()
{
    ResourceSnapshot snapshot;
    if (const auto stats = readAllocatorStats())
    {
        snapshot.allocator_stats_available = true;
        snapshot.allocated_bytes = stats->allocated_bytes;
        snapshot.active_bytes = stats->active_bytes;
        snapshot.resident_bytes = stats->resident_bytes;
    }
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0)
    {
        snapshot.minor_page_faults = static_cast<uint64_t>(usage.ru_minflt);
        snapshot.major_page_faults = static_cast<uint64_t>(usage.ru_majflt);
        snapshot.peak_resident_bytes = static_cast<uint64_t>(usage.ru_maxrss) * kBytesPerRusageUnit;
    }
    return snapshot;
}

ResourceUsage operator-(const ResourceSnapshot& after, const ResourceSnapshot& before)
{
    ResourceUsage usage;
    usage.allocator_stats_available =
        after.allocator_stats_available && before.allocator_stats_available;
    if (usage.allocator_stats_available)
    {
        usage.allocated_bytes = signedDifference(after.allocated_bytes, before.allocated_bytes);
        usage.active_bytes = signedDifference(after.active_bytes, before.active_bytes);
        usage.resident_bytes = signedDifference(after.resident_bytes, before.resident_bytes);
    }
    usage.minor_page_faults = after.minor_page_faults - before.minor_page_faults;
    usage.major_page_faults = after.major_page_faults - before.major_page_faults;
    usage.peak_resident_growth_bytes = after.peak_resident_bytes - before.peak_resident_bytes;
    return usage;
}

}  // namespace granary
