#pragma once

#include <cstdint>
#include <optional>

namespace granary::clickbench
{

/// Bytes this process has caused to be read from storage (/proc/self/io read_bytes: page
/// cache misses, memory-mapped reads included); none where the file cannot be read.
std::optional<uint64_t> storageReadBytes();

}  // namespace granary::clickbench
