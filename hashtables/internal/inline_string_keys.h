#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hashtables/hash.h"
#include "hashtables/internal/word_keys.h"

namespace granary::internal
{

/// Strings of 1..24 bytes are stored inline as zero-padded little-endian words. A string ending
/// in a NUL byte would be ambiguous ("a" vs "a\0"), so those go to the long-string table; then
/// the length is recoverable from the position of the last non-zero byte.
template <size_t Words>
struct InlineStringKey
{
    std::array<uint64_t, Words> words{};

    bool operator==(const InlineStringKey& other) const { return equalWords(words, other.words); }

    /// Bytes in use: the full words before the last plus the significant bytes of the last.
    size_t length() const
    {
        const uint64_t last = words[Words - 1];
        return (Words - 1) * 8 + (64 - std::countl_zero(last) + 7) / 8;
    }
    std::string_view view() const
    {
        return {reinterpret_cast<const char*>(words.data()), length()};
    }
};

using InlineStringKey8 = InlineStringKey<1>;
using InlineStringKey16 = InlineStringKey<2>;
using InlineStringKey24 = InlineStringKey<3>;

/// Largest string stored inline.
inline constexpr size_t kMaxInlineStringBytes = 24;

/// Packs `s` (1..Words*8 bytes, last byte non-zero) into an inline key.
template <size_t Words>
InlineStringKey<Words> packInlineString(std::string_view s)
{
    InlineStringKey<Words> key;
    const size_t full_words = (s.size() - 1) / 8;
    for (size_t i = 0; i < full_words; ++i)
    {
        key.words[i] = hashing::load64(s.data() + 8 * i);
    }
    key.words[full_words] = hashing::loadTail(s.data() + 8 * full_words, s.size() - 8 * full_words);
    return key;
}

/// Recomputes hashing::hashString of the original bytes from an inline key.
struct InlineStringHash
{
    template <size_t Words>
    uint64_t operator()(const InlineStringKey<Words>& key) const
    {
        const uint64_t w1 = Words > 1 ? key.words[Words > 1 ? 1 : 0] : 0;
        const uint64_t w2 = Words > 2 ? key.words[Words > 2 ? 2 : 0] : 0;
        return hashing::hashShortWords(key.words[0], w1, w2, key.length());
    }
};

}  // namespace granary::internal
