#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace granary::encoding
{

/// The general-purpose codec applied on top of a block's encoding, when it pays.
enum class Codec : uint8_t
{
    kNone = 0,
    kLZ4 = 1,
    kZSTD = 2,
};

/// A column's codec choice, as `CODEC(...)` spells it in CREATE TABLE. LZ4 is the default.
struct CodecChoice
{
    Codec codec = Codec::kLZ4;
    int level = 1;  ///< ZSTD's level; ignored by the others.

    /// "LZ4", "ZSTD(3)", "NONE".
    std::string toString() const;
    /// Parses toString's spelling (case-insensitive name); throws kUnknownCompressionMethod.
    static CodecChoice parse(std::string_view text);
    /// A `CODEC(...)` list as ClickHouse writes it ("Delta, ZSTD(1)"): ClickHouse's value
    /// transforms (Delta, DoubleDelta, T64, Gorilla, FPC) are accepted and left to Granary's
    /// per-granule encodings, which pick delta and frame-of-reference forms themselves; the
    /// last compression codec listed applies (LZ4 when none is).
    static CodecChoice parseChain(std::string_view text);
};

bool operator==(const CodecChoice& left, const CodecChoice& right);

/// Compresses `payload` with the choice's codec into `out` (replacing its contents) and returns
/// the codec used: kNone (and `out` untouched) when the codec is NONE or would not save at
/// least an eighth of the bytes, which is not worth a decompression.
Codec compressPayload(std::string_view payload, const CodecChoice& choice, std::string& out);

/// Whether `stored` can decompress to `payload_size` bytes at all (LZ4 expands at most 255
/// times; a ZSTD frame records its size): checked before a reader allocates for a damaged
/// block's claim.
bool plausiblePayloadSize(Codec codec, std::string_view stored, size_t payload_size);

/// Decompresses `stored` into `out`, which has room for exactly `payload_size` bytes. Throws
/// Exception(kCorruptedData) when the bytes do not decompress to exactly that size, and
/// kUnknownCompressionMethod for a codec byte it does not know.
void decompressPayload(Codec codec, std::string_view stored, char* out, size_t payload_size);

}  // namespace granary::encoding
