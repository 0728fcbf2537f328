#pragma once

#include <cstddef>
#include <cstdint>
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

    /// The smallest frame holding every value; `signed_order` compares values as int64 (signed
    /// columns, deltas). The width may exceed kMaxWidth: then the values should not be packed.
    static PackedInts frameOf(std::span<const uint64_t> values, bool signed_order);
    static size_t packedBytes(size_t count, unsigned width) { return (count * width + 7) / 8; }
    size_t serializedBytes(size_t count) const
    {
        return kHeaderBytes + packedBytes(count, width) + kPackedPadding;
    }

    /// Appends the header and the packed values to `out`.
    void pack(std::span<const uint64_t> values, std::string& out) const;
};

/// Reads a serialized PackedInts of `count` values starting at `bytes`, of `size` bytes at
/// most; writes `base + packed` narrowed to U (wrapping, as the writer widened). Returns the
/// bytes consumed; throws Exception(kCorruptedData) when they run past `size` or the width is
/// impossible.
template <typename U>
size_t unpackInts(const char* bytes, size_t size, size_t count, U* out);

}  // namespace granary::encoding
