#pragma once

#include <cstddef>

namespace granary
{

/// Rows between a prefetch of a cell and the emplace that uses it: about the number of cache
/// misses a core keeps in flight, so that large tables run at the random-load rate of the
/// memory system instead of paying its latency per row.
inline constexpr size_t kPrefetchRowsAhead = 16;

/// Rows hashed together before their emplaces: enough to run far ahead of the probes, few
/// enough that the hashes stay in L1.
inline constexpr size_t kHashBatchRows = 256;

}  // namespace granary
