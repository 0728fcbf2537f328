#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace granary
{

/// Buckets of the two-level tables, and so of routed rows: one per value of the hash's top
/// byte.
inline constexpr size_t kPartitionBuckets = 256;

/// Copies `count` values of `width` bytes (1, 2, 4 or 8: every fixed-width column type):
/// value i goes to destinations[buckets[i]], each bucket's values one after the other (a
/// bucket without values may have any destination). The values meet each cache line's end
/// (destinations are multiples of their width apart from malloc's alignment), so they are
/// gathered per bucket in a line-sized staging buffer that mirrors the destination line and is
/// streamed out whole with non-temporal stores (software write-combining): 256 interleaved
/// write streams then neither read each line before writing it nor evict each other's
/// half-written lines. Ends with a store fence, so the values may be handed to other threads.
void scatterToBuckets(const char* values, size_t width, size_t count, const uint8_t* buckets,
                      const std::array<char*, kPartitionBuckets>& destinations);

}  // namespace granary
