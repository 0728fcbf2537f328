#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "hashtables/hash.h"

namespace granary
{

/// Key comparison for cells: `==` for fixed-width keys; string keys compare their bytes inline.
/// A probe that hits compares the whole key, and for URL-like keys of tens of bytes the call into
/// libc's memcmp (and the ordering it computes) cost about as much as the comparison itself.
template <typename Key>
bool keysEqual(const Key& a, const Key& b)
{
    return a == b;
}

namespace internal
{

/// Above this many bytes the comparison is memcmp's; up to it, the first and last 64 bytes.
inline constexpr size_t kInlineCompareMaxBytes = 128;

/// Bits that differ between the 16 bytes at a and at b (zero when equal).
inline uint64_t difference16(const char* a, const char* b)
{
    return (hashing::load64(a) ^ hashing::load64(b)) |
           (hashing::load64(a + 8) ^ hashing::load64(b + 8));
}

/// Equality of two ranges of `length` bytes; reads no byte outside them. Lengths of 17 to 128
/// bytes take a fixed set of 16-byte steps for their size class (the last ones overlapping),
/// with no branch between them: URL-like keys vary in length from row to row, and a loop
/// whose trip count follows the length mispredicts its exit on most rows.
inline bool bytesEqual(const char* a, const char* b, size_t length)
{
    if (length > 16)
    {
        if (length <= 32)
        {
            return (difference16(a, b) | difference16(a + length - 16, b + length - 16)) == 0;
        }
        if (length <= 64)
        {
            return (difference16(a, b) | difference16(a + 16, b + 16) |
                    difference16(a + length - 32, b + length - 32) |
                    difference16(a + length - 16, b + length - 16)) == 0;
        }
        if (length <= kInlineCompareMaxBytes)
        {
            uint64_t difference = 0;
            for (size_t offset = 0; offset < 64; offset += 16)
            {
                difference |= difference16(a + offset, b + offset) |
                              difference16(a + length - 64 + offset, b + length - 64 + offset);
            }
            return difference == 0;
        }
        return std::memcmp(a, b, length) == 0;
    }
    if (length >= 8)
    {
        return ((hashing::load64(a) ^ hashing::load64(b)) |
                (hashing::load64(a + length - 8) ^ hashing::load64(b + length - 8))) == 0;
    }
    return length == 0 || hashing::loadTail(a, length) == hashing::loadTail(b, length);
}

}  // namespace internal

inline bool keysEqual(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && internal::bytesEqual(a.data(), b.data(), a.size());
}

}  // namespace granary
