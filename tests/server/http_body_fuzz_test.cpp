// A bounded fuzz of the request-body decoders: CityHash-checked frames (decompress=1) and the
// zstd and LZ4-frame Content-Encodings. Valid bodies with bytes flipped, cut, inserted or
// repeated must decode or fail with a granary::Exception, never crash or read out of bounds
// (the sanitizer builds run it too).
#include <gtest/gtest.h>
#include <lz4frame.h>
#include <zstd.h>

#include <random>

#include "engine/common/exception.h"
#include "server/compression.h"
#include "server/http_body.h"

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

std::string mutate(std::string input, std::mt19937_64& random)
{
    const size_t mutations = 1 + random() % 3;
    for (size_t i = 0; i < mutations && !input.empty(); ++i)
    {
        const size_t at = random() % input.size();
        switch (random() % 4)
        {
            case 0:
                input[at] = static_cast<char>(random());
                break;
            case 1:
                input.resize(at);
                break;
            case 2:
                input.insert(at, 1 + random() % 8, static_cast<char>(random()));
                break;
            default:
                input.insert(at, input.substr(at, random() % 64));
                break;
        }
    }
    return input;
}

template <typename Decode>
void fuzz(const std::string& valid, Decode decode)
{
    std::mt19937_64 random(42);
    size_t failures = 0;
    for (size_t i = 0; i < kMutations; ++i)
    {
        try
        {
            decode(mutate(valid, random));
        }
        catch (const Exception&)
        {
            ++failures;
        }
    }
    EXPECT_GT(failures, kMutations / 4);
}

TEST(HttpBodyFuzz, CompressedFrames)
{
    WriteBuffer frames;
    compressFrames(sampleData(), frames);
    fuzz(frames.bytes(), [](const std::string& body)
         { decodeCompressedFrames(body, 1 << 20, kMaxBytes); });
}

TEST(HttpBodyFuzz, ZstdEncoding)
{
    const std::string data = sampleData();
    std::string zstd(ZSTD_compressBound(data.size()), '\0');
    zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), data.data(), data.size(), 1));
    fuzz(zstd, [](const std::string& body) { decodeContentEncoding("zstd", body, kMaxBytes); });
}

TEST(HttpBodyFuzz, Lz4FrameEncoding)
{
    const std::string data = sampleData();
    std::string lz4(LZ4F_compressFrameBound(data.size(), nullptr), '\0');
    lz4.resize(LZ4F_compressFrame(lz4.data(), lz4.size(), data.data(), data.size(), nullptr));
    fuzz(lz4, [](const std::string& body) { decodeContentEncoding("lz4", body, kMaxBytes); });
}

}  // namespace
}  // namespace granary::server
