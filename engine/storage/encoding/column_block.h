#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/storage/encoding/block_codec.h"
#include "engine/storage/encoding/string_dictionary.h"

namespace granary::encoding
{

/// How a block's values are laid out before the codec.
enum class Encoding : uint8_t
{
    kPlain = 0,     ///< Fixed: the values. String: packed lengths (before the codec), the bytes.
    kConstant = 1,  ///< One value for every row.
    kFrameOfReference = 2,  ///< Integers: PackedInts of the values.
    kDelta = 3,             ///< Integers: the first value, then PackedInts of the differences.
    kDictionary = 4,        ///< Strings: PackedInts of codes into the part's dictionary.
};

/// What precedes every block: its encoding, its codec, its row count, the bytes that follow
/// (stored: an uncompressed prefix, if the encoding has one, then the codec's stream) and
/// those the stream decompresses to (payload). Little-endian, kBytes bytes.
struct BlockHeader
{
    static constexpr size_t kBytes = 16;

    Encoding encoding = Encoding::kPlain;
    Codec codec = Codec::kNone;
    uint32_t rows = 0;
    uint32_t stored_bytes = 0;
    uint32_t payload_bytes = 0;
};

/// Sampling of a costly attempt that keeps failing on a column (a codec on random bits, a
/// dictionary on unique strings): after kMissesBeforeSampling misses in a row it is tried on
/// one block in kSamplingInterval only, until it succeeds again.
class AttemptSampler
{
public:
    static constexpr unsigned kMissesBeforeSampling = 4;
    static constexpr unsigned kSamplingInterval = 16;

    bool shouldTry()
    {
        return misses_ < kMissesBeforeSampling || ++skipped_ % kSamplingInterval == 0;
    }
    void record(bool success) { misses_ = success ? 0 : misses_ + 1; }

private:
    unsigned misses_ = 0;
    unsigned skipped_ = 0;
};

/// What one column writer keeps across its blocks: reused buffers and the samplers.
struct EncodeScratch
{
    std::vector<uint64_t> values;
    std::string prefix;  ///< Stored before the codec's stream, uncompressed.
    std::string payload;
    std::string compressed;
    AttemptSampler codec;
    AttemptSampler dictionary;
};

/// Appends one block holding every row of `rows` (at most 2^32 - 1 of them) to `out`, in the
/// cheapest encoding, compressed by `codec` where that pays. String blocks are coded against
/// `dictionary` when that is cheaper than storing their strings.
void encodeBlock(const ColumnView& rows, const CodecChoice& codec,
                 StringDictionaryBuilder* dictionary, EncodeScratch& scratch, std::string& out);

/// Some rows of a block (ascending), and a column of the block's type for decoding blocks that
/// cannot be read row by row.
struct BlockSelection
{
    std::span<const uint32_t> rows;
    Column& scratch;
};

/// Decodes the block at the start of `bytes` (of `expected_rows` rows; a string column's
/// dictionary entries in `dictionary`), appending its rows to `out` (only the selected ones
/// with a `selection`: dictionary and constant string blocks copy no other string). Returns
/// the bytes the block took. Throws Exception(kCorruptedData) describing what does not fit.
size_t decodeBlock(std::string_view bytes, size_t expected_rows, const ColumnView& dictionary,
                   Column& out, const BlockSelection* selection = nullptr);

/// When the block at the start of `bytes` (of `expected_rows` rows) is coded against the
/// part's dictionary of `dictionary_entries` entries, writes its codes to codes[0, rows) and
/// returns true; else returns false. Throws Exception(kCorruptedData) like decodeBlock, and
/// for a code past the dictionary.
bool decodeDictionaryCodes(std::string_view bytes, size_t expected_rows, size_t dictionary_entries,
                           uint32_t* codes);

/// The encoding of the block at the start of `bytes` (for statistics and tests).
BlockHeader readBlockHeader(std::string_view bytes);

}  // namespace granary::encoding
