#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace granary
{

/// 64-bit hashes for hash-table keys. Tables index slots with the low bits and pick two-level
/// buckets with the top 8 bits, so every bit of the result must depend on every bit of the key.
namespace hashing
{

/// Odd constant with well-spread bits (2^64 / golden ratio): Fibonacci-hashing multiplier.
inline constexpr uint64_t kGoldenMultiplier = 0x9E3779B97F4A7C15ULL;
/// Second independent odd multiplier, for mixing a second word.
inline constexpr uint64_t kSecondMultiplier = 0xC2B2AE3D27D4EB4FULL;
/// Third multiplier, for folding in lengths and tails.
inline constexpr uint64_t kThirdMultiplier = 0x165667B19E3779F9ULL;

/// Folds the 128-bit product: high bits depend on all input bits, low bits on the low ones;
/// xor-ing both gives good low bits (slots) and good high bits (buckets) in one multiply.
inline uint64_t multiplyFold(uint64_t a, uint64_t b)
{
    const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
    return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

inline uint64_t load64(const char* p)
{
    uint64_t value;
    std::memcpy(&value, p, sizeof(value));
    return value;
}

inline uint32_t load32(const char* p)
{
    uint32_t value;
    std::memcpy(&value, p, sizeof(value));
    return value;
}

/// Reads 1..8 bytes into a zero-padded little-endian word without touching bytes past the end.
inline uint64_t loadTail(const char* p, size_t length)
{
    if (length >= 4)
    {
        const uint64_t low = load32(p);
        const uint64_t high = load32(p + length - 4);
        return low | (high << (8 * (length - 4)));
    }
    const uint64_t first = static_cast<unsigned char>(p[0]);
    const uint64_t middle = static_cast<unsigned char>(p[length / 2]);
    const uint64_t last = static_cast<unsigned char>(p[length - 1]);
    return first | (middle << (8 * (length / 2))) | (last << (8 * (length - 1)));
}

inline uint64_t hashInt64(uint64_t key)
{
    return multiplyFold(key, kGoldenMultiplier);
}

inline uint64_t hashWords(uint64_t a, uint64_t b)
{
    return multiplyFold(hashInt64(a) ^ b, kSecondMultiplier);
}

/// Hash of up to three zero-padded words plus the byte length; used for strings of <= 24 bytes
/// so that the inline string tables can recompute it from their packed keys.
inline uint64_t hashShortWords(uint64_t w0, uint64_t w1, uint64_t w2, size_t length)
{
    const uint64_t a = multiplyFold(w0 ^ kGoldenMultiplier, w1 ^ kSecondMultiplier);
    return multiplyFold(a ^ w2 ^ (length * kThirdMultiplier), kGoldenMultiplier);
}

/// Hash of arbitrary bytes. Two independent lanes over 32-byte strides keep the multiplier busy.
uint64_t hashBytes(const char* data, size_t length);

inline uint64_t hashString(std::string_view s)
{
    return hashBytes(s.data(), s.size());
}

}  // namespace hashing

/// Hash policy for integer keys up to 64 bits.
struct IntHash
{
    template <typename T>
    uint64_t operator()(T key) const
    {
        return hashing::hashInt64(static_cast<uint64_t>(key));
    }
};

/// Hash policy for string keys.
struct StringHash
{
    uint64_t operator()(std::string_view key) const { return hashing::hashString(key); }
};

}  // namespace granary
