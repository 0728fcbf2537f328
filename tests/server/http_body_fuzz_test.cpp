// A bounded fuzz of the request-body decoders: CityHash-checked frames (decompress=1) and the
// zstd and LZ4-frame Content-Encodings. Valid bodies with bytes flipped, cut, inserted or
// repeated must decode or fail with a granary::Exception, never crash or read out of bounds
// (the sanitizer builds run it too).
#include <gtest/gtest.h>
#include <lz4frame.h>
#include <zstd.h>

#include "engine/common/exception.h"
#include "server/compression.h"
#include "server/http_body.h"
#include "tests/support/byte_mutation_fuzz.h"

namespace granary::server
{
namespace
{

/// Mutations per decoder: every error path is reached well before this, and CI stays fast.
constexpr size_t kMutations = 5000;
constexpr size_t kMaxBytes = 1 << 24;

std::string sampleData()
{
    std::string data;
    for (int i = 0; i < 20000; ++i)
    {
        data += "row " + std::to_string(i * 7919 % 1000) + ";";
    }
    return data;
}

TEST(HttpBodyFuzz, CompressedFrames)
{
    WriteBuffer frames;
    compressFrames(sampleData(), frames);
    granary::testing::fuzzDecoder(frames.bytes(), kMutations, 42,
                                  [](const std::string& body)
                                  { decodeCompressedFrames(body, 1 << 20, kMaxBytes); });
}

TEST(HttpBodyFuzz, ZstdEncoding)
{
    const std::string data = sampleData();
    std::string zstd(ZSTD_compressBound(data.size()), '\0');
    zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), data.data(), data.size(), 1));
    granary::testing::fuzzDecoder(zstd, kMutations, 42,
                                  [](const std::string& body)
                                  { decodeContentEncoding("zstd", body, kMaxBytes); });
}

TEST(HttpBodyFuzz, Lz4FrameEncoding)
{
    const std::string data = sampleData();
    std::string lz4(LZ4F_compressFrameBound(data.size(), nullptr), '\0');
    lz4.resize(LZ4F_compressFrame(lz4.data(), lz4.size(), data.data(), data.size(), nullptr));
    granary::testing::fuzzDecoder(lz4, kMutations, 42,
                                  [](const std::string& body)
                                  { decodeContentEncoding("lz4", body, kMaxBytes); });
}

}  // namespace
}  // namespace granary::server
