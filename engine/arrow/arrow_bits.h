#pragma once

// Arrow's bitmaps (validity and booleans): bit i is bit i % 8 of byte i / 8.

#include <bit>
#include <cstddef>
#include <cstdint>

namespace granary::arrow
{

inline constexpr size_t kBitsPerByte = 8;

inline size_t bitmapBytes(size_t bits)
{
    return (bits + kBitsPerByte - 1) / kBitsPerByte;
}

inline bool bitAt(const uint8_t* bitmap, size_t bit)
{
    return ((bitmap[bit / kBitsPerByte] >> (bit % kBitsPerByte)) & 1) != 0;
}

/// Sets bit `bit` of a bitmap whose bits start cleared.
inline void setBit(uint8_t* bitmap, size_t bit)
{
    bitmap[bit / kBitsPerByte] |= static_cast<uint8_t>(1u << (bit % kBitsPerByte));
}

/// Clear bits among the first `bits` of `bitmap`.
inline size_t countClearBits(const uint8_t* bitmap, size_t bits)
{
    size_t set = 0;
    const size_t whole_bytes = bits / kBitsPerByte;
    for (size_t i = 0; i < whole_bytes; ++i)
    {
        set += std::popcount(bitmap[i]);
    }
    for (size_t bit = whole_bytes * kBitsPerByte; bit < bits; ++bit)
    {
        set += bitAt(bitmap, bit) ? 1 : 0;
    }
    return bits - set;
}

}  // namespace granary::arrow
