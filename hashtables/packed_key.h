#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hashtables/hash.h"
#include "hashtables/internal/word_keys.h"

namespace granary
{

/// Several fixed-width key columns packed side by side into one key of 16 or 32 bytes, so a
/// multi-column GROUP BY compares and hashes a few words instead of tuples.
template <size_t Words>
struct PackedKey
{
    static_assert(Words == 2 || Words == 4, "packed keys are 16 or 32 bytes");
    static constexpr size_t kBytes = Words * sizeof(uint64_t);

    std::array<uint64_t, Words> words{};

    /// Copies `size` bytes of a column value in at byte `offset`.
    void put(size_t offset, const void* value, size_t size)
    {
        std::memcpy(reinterpret_cast<char*>(words.data()) + offset, value, size);
    }
    /// Copies `size` bytes at byte `offset` out into `value`.
    void get(size_t offset, void* value, size_t size) const
    {
        std::memcpy(value, reinterpret_cast<const char*>(words.data()) + offset, size);
    }

    bool operator==(const PackedKey& other) const
    {
        return internal::equalWords(words, other.words);
    }
};

using PackedKey16 = PackedKey<2>;
using PackedKey32 = PackedKey<4>;

struct PackedKeyHash
{
    template <size_t Words>
    uint64_t operator()(const PackedKey<Words>& key) const
    {
        uint64_t hash = hashing::hashWords(key.words[0], key.words[1]);
        for (size_t i = 2; i < Words; i += 2)
        {
            hash = hashing::hashWords(hash ^ key.words[i], key.words[i + 1]);
        }
        return hash;
    }
};

}  // namespace granary
