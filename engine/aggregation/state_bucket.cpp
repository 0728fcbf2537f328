#include "engine/aggregation/state_bucket.h"

#include <cstring>

#include "engine/columns/types.h"

namespace granary
{
namespace
{

/// FNV-1a's 64-bit offset basis and prime.
constexpr uint64_t kFnvOffset = 0xCBF29CE484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001B3ULL;
/// What a NULL key contributes: any fixed value no 64-bit pattern is more likely to take.
constexpr uint64_t kNullKey = 0x9E3779B97F4A7C15ULL;
/// The mix's multiplier (odd, bits spread: from MurmurHash3's 64-bit finalizer).
constexpr uint64_t kMixMultiplier = 0xFF51AFD7ED558CCDULL;

uint64_t mix(uint64_t hash, uint64_t value)
{
    hash ^= value;
    hash *= kMixMultiplier;
    return hash ^ (hash >> 33);
}

uint64_t keyValue(const ColumnView& key, size_t row)
{
    if (!key.isValid(row))
    {
        return kNullKey;
    }
    if (isString(key.type))
    {
        uint64_t hash = kFnvOffset;
        for (const char c : key.stringAt(row))
        {
            hash = (hash ^ static_cast<uint8_t>(c)) * kFnvPrime;
        }
        return hash;
    }
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const char*>(key.data) + row * fixedWidth(key.type),
                fixedWidth(key.type));
    return bits;
}

}  // namespace

uint8_t partialStateBucket(std::span<const ColumnView> keys, size_t row)
{
    uint64_t hash = kFnvOffset;
    for (const ColumnView& key : keys)
    {
        hash = mix(hash, keyValue(key, row));
    }
    return static_cast<uint8_t>(hash >> 56);
}

}  // namespace granary
