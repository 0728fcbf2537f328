#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace granary::encoding
{

/// Frame of reference + bit packing: values stored as `value - base` in `width` bits each,
/// little-endian bit order. Serialized as base (8 bytes), width (1 byte), then the packed bits
/// followed by kPackedPadding zero bytes, so that a reader may load 8 bytes at any value.
struct PackedInts
{
    /// Widths above this are not worth packing (a 64-bit load must hold a value at any bit).
    static constexpr unsigned kMaxWidth = 56;
    static constexpr size_t kHeaderBytes = 9;
    static constexpr size_t kPackedPadding = 8;

    uint64_t base = 0;
    unsigned width = 0;

    /// The frame a serialized PackedInts starts with (its width not yet checked); throws
    /// Exception(kCorruptedData) when `size` bytes cannot hold the header.
    static PackedInts readHeader(const char* bytes, size_t size);
    /// The smallest frame holding every value; `signed_order` compares values as int64 (signed
    /// columns, deltas). The width may exceed kMaxWidth: then the values should not be packed.
    static PackedInts frameOf(std::span<const uint64_t> values, bool signed_order);
    static size_t packedBytes(size_t count, unsigned width) { return (count * width + 7) / 8; }
    size_t serializedBytes(size_t count) const
    {
        return kHeaderBytes + packedBytes(count, width) + kPackedPadding;
    }

    /// Appends the header and the packed values to `out`.
    void pack(std::span<const uint64_t> values, std::string& out) const
    {
        packOffsets(
            values.size(), [&](size_t i) { return values[i] - base; }, out);
    }
    /// The same for `count` values given as `offset_of(i)` = value i - base (callers that
    /// compute them in a narrower type).
    template <typename OffsetOf>
    void packOffsets(size_t count, OffsetOf offset_of, std::string& out) const;
};

template <typename OffsetOf>
void PackedInts::packOffsets(size_t count, OffsetOf offset_of, std::string& out) const
{
    const size_t start = out.size();
    out.resize(start + serializedBytes(count), '\0');
    char* header = out.data() + start;
    std::memcpy(header, &base, sizeof(base));
    header[8] = char(width);
    if (width == 0)
    {
        return;
    }
    // Bits gather in a register written out once per 64: storing each value into memory the
    // previous one just wrote would stall on every value.
    char* word_out = header + kHeaderBytes;
    uint64_t word = 0;
    unsigned used = 0;
    for (size_t i = 0; i < count; ++i)
    {
        const uint64_t bits = offset_of(i);
        word |= bits << used;
        used += width;
        if (used >= 64)
        {
            std::memcpy(word_out, &word, sizeof(word));
            word_out += sizeof(word);
            used -= 64;
            word = used == 0 ? 0 : bits >> (width - used);
        }
    }
    // The padding after the packed bytes takes the rest of this word.
    std::memcpy(word_out, &word, sizeof(word));
}

/// Reads a serialized PackedInts of `count` values starting at `bytes`, of `size` bytes at
/// most; writes `base + packed` narrowed to U (wrapping, as the writer widened). Returns the
/// bytes consumed; throws Exception(kCorruptedData) when they run past `size` or the width is
/// impossible.
template <typename U>
size_t unpackInts(const char* bytes, size_t size, size_t count, U* out);

}  // namespace granary::encoding
