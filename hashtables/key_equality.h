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

/// Above this many bytes memcmp's wide vector loop wins over 16-byte steps.
inline constexpr size_t kInlineCompareMaxBytes = 256;

inline bool equal16(const char* a, const char* b)
{
    return ((hashing::load64(a) ^ hashing::load64(b)) |
            (hashing::load64(a + 8) ^ hashing::load64(b + 8))) == 0;
}

/// Equality of two ranges of `length` bytes; reads no byte outside them.
inline bool bytesEqual(const char* a, const char* b, size_t length)
{
    if (length >= 16)
    {
        if (length > kInlineCompareMaxBytes)
        {
            return std::memcmp(a, b, length) == 0;
        }
        // 16-byte steps; the last step ends at the last byte and may overlap the one before.
        for (size_t offset = 0; offset + 16 < length; offset += 16)
        {
            if (!equal16(a + offset, b + offset))
            {
                return false;
            }
        }
        return equal16(a + length - 16, b + length - 16);
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
