#pragma once

#include <cstddef>
#include <cstdint>

namespace granary::server
{

struct Hash128
{
    uint64_t low = 0;
    uint64_t high = 0;
    bool operator==(const Hash128&) const = default;
};

/// CityHash128 as published in CityHash v1.0.2: the checksum of the native protocol's
/// compressed frames. Later CityHash versions give different values and must not be used.
Hash128 cityHash128(const char* data, size_t size);

}  // namespace granary::server
