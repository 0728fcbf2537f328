#include "server/http_body.h"

#include <fmt/format.h>
#include <lz4frame.h>
#include <zstd.h>

#include <cstring>
#include <memory>
#include <vector>

#include "engine/common/exception.h"
#include "engine/ingest/insert_input.h"
#include "server/compression.h"

namespace granary::server
{
namespace
{

/// Output is produced this much at a time.
constexpr size_t kDecodeChunkBytes = size_t{1} << 20;

void checkOutputSize(size_t size, size_t max_bytes)
{
    if (size > max_bytes)
    {
        throw Exception(ErrorCode::kQueryIsTooLarge,
                        fmt::format("Decoded request body exceeds {} bytes", max_bytes));
    }
}

std::string decodeZstd(std::string_view body, size_t max_bytes)
{
    std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(),
                                                                      &ZSTD_freeDStream);
    ZSTD_inBuffer input{body.data(), body.size(), 0};
    std::string out;
    size_t last = 1;
    while (input.pos < input.size)
    {
        const size_t used = out.size();
        out.resize(used + kDecodeChunkBytes);
        ZSTD_outBuffer output{out.data() + used, kDecodeChunkBytes, 0};
        last = ZSTD_decompressStream(stream.get(), &output, &input);
        out.resize(used + output.pos);
        if (ZSTD_isError(last))
        {
            throw Exception(
                ErrorCode::kCorruptedData,
                fmt::format("zstd request body is damaged: {}", ZSTD_getErrorName(last)));
        }
        checkOutputSize(out.size(), max_bytes);
    }
    if (last != 0)
    {
        throw Exception(ErrorCode::kCannotReadAllData, "zstd request body ends inside a frame");
    }
    return out;
}

std::string decodeLz4Frame(std::string_view body, size_t max_bytes)
{
    LZ4F_dctx* raw_context = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&raw_context, LZ4F_VERSION)))
    {
        throw Exception(ErrorCode::kLogicalError, "cannot create an LZ4 decompression context");
    }
    std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> context(
        raw_context, &LZ4F_freeDecompressionContext);
    std::string out;
    size_t position = 0;
    size_t hint = 1;
    while (position < body.size())
    {
        const size_t used = out.size();
        out.resize(used + kDecodeChunkBytes);
        size_t produced = kDecodeChunkBytes;
        size_t consumed = body.size() - position;
        hint = LZ4F_decompress(context.get(), out.data() + used, &produced, body.data() + position,
                               &consumed, nullptr);
        out.resize(used + produced);
        if (LZ4F_isError(hint))
        {
            throw Exception(
                ErrorCode::kCorruptedData,
                fmt::format("lz4 request body is damaged: {}", LZ4F_getErrorName(hint)));
        }
        position += consumed;
        checkOutputSize(out.size(), max_bytes);
    }
    if (hint != 0)
    {
        throw Exception(ErrorCode::kCannotReadAllData, "lz4 request body ends inside a frame");
    }
    return out;
}

}  // namespace

std::string decodeContentEncoding(std::string_view encoding, std::string body, size_t max_bytes)
{
    // The HTTP library has already decoded gzip, deflate and br (the header stays).
    if (encoding.empty() || encoding == "identity" || encoding == "gzip" || encoding == "deflate" ||
        encoding == "br")
    {
        return body;
    }
    if (encoding == "zstd")
    {
        return decodeZstd(body, max_bytes);
    }
    if (encoding == "lz4")
    {
        return decodeLz4Frame(body, max_bytes);
    }
    throw Exception(ErrorCode::kUnsupportedMethod,
                    fmt::format("Unknown Content-Encoding of HTTP request: {}", encoding));
}

std::string decodeCompressedFrames(std::string_view body, size_t max_frame_bytes, size_t max_bytes)
{
    constexpr size_t kFramePrefixBytes = kFrameChecksumBytes + kFrameHeaderBytes;
    // First the headers alone: the output is sized once and each frame decoded in place.
    struct Frame
    {
        size_t offset;
        FrameHeader header;
    };
    std::vector<Frame> frames;
    size_t total = 0;
    for (size_t offset = 0; offset < body.size();)
    {
        if (body.size() - offset < kFramePrefixBytes)
        {
            throw Exception(ErrorCode::kCannotReadAllData,
                            fmt::format("Cannot read all data: the request body ends inside the "
                                        "header of a compressed frame at byte {}",
                                        offset));
        }
        FrameHeader header;
        try
        {
            header = parseFrameHeader(body.data() + offset + kFrameChecksumBytes, max_frame_bytes);
        }
        catch (const Exception& error)
        {
            if (error.code() != ErrorCode::kUnknownCompressionMethod)
            {
                throw;
            }
            throw Exception(error.code(),
                            fmt::format("{} at byte {} (with decompress=1 the body must be "
                                        "compressed frames; is it?)",
                                        error.what(), offset));
        }
        if (body.size() - offset - kFrameChecksumBytes < header.frame_size)
        {
            throw Exception(
                ErrorCode::kCannotReadAllData,
                fmt::format("Cannot read all data: the compressed frame at byte {} "
                            "needs {} bytes, the body has {}",
                            offset, header.frame_size + kFrameChecksumBytes, body.size() - offset));
        }
        total += header.decompressed_size;
        checkOutputSize(total, max_bytes);
        frames.push_back({offset, header});
        offset += kFrameChecksumBytes + header.frame_size;
    }
    std::string out;
    out.reserve(total + ingest::kInputPaddingBytes);  // the JSON reader parses in place
    out.resize(total);
    size_t written = 0;
    for (const Frame& frame : frames)
    {
        Hash128 checksum;
        std::memcpy(&checksum.low, body.data() + frame.offset, 8);
        std::memcpy(&checksum.high, body.data() + frame.offset + 8, 8);
        decodeFrame(checksum,
                    body.substr(frame.offset + kFrameChecksumBytes, frame.header.frame_size),
                    frame.header, out.data() + written);
        written += frame.header.decompressed_size;
    }
    return out;
}

}  // namespace granary::server
