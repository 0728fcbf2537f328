#pragma once

#include <cstddef>
#include <string_view>

namespace granary
{

/// Rows between a prefetch of a cell and the emplace that uses it: about the number of cache
/// misses a core keeps in flight, so that large tables run at the random-load rate of the
/// memory system instead of paying its latency per row.
inline constexpr size_t kPrefetchRowsAhead = 16;

/// Rows hashed together before their emplaces: enough to run far ahead of the probes, few
/// enough that the hashes stay in L1.
inline constexpr size_t kHashBatchRows = 256;

/// Bytes that one prefetch or load brings in: a cache line.
inline constexpr size_t kPrefetchLineBytes = 64;

/// Rows between a prefetch of a string key's bytes and the hashing that reads them.
inline constexpr size_t kPrefetchKeyBytesAhead = 8;

/// Brings in the first and the last cache line of `bytes`, which hashing a key reads first.
inline void prefetchBytes(std::string_view bytes)
{
    __builtin_prefetch(bytes.data());
    __builtin_prefetch(bytes.data() + bytes.size() - static_cast<size_t>(!bytes.empty()));
}

}  // namespace granary
