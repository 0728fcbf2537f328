#include "server/compression.h"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include "engine/common/exception.h"
#include "server/city_hash.h"

namespace granary::server
{

void compressFrames(std::string_view data, WriteBuffer& out, size_t frame_input_bytes)
{
    std::string frame;
    size_t offset = 0;
    do
    {
        const size_t input_size = std::min(frame_input_bytes, data.size() - offset);
        const int bound = LZ4_compressBound(static_cast<int>(input_size));
        frame.resize(kFrameHeaderBytes + static_cast<size_t>(bound));
        const int compressed =
            LZ4_compress_default(data.data() + offset, frame.data() + kFrameHeaderBytes,
                                 static_cast<int>(input_size), bound);
        if (compressed <= 0 && input_size > 0)
        {
            throw Exception(ErrorCode::kLogicalError, "LZ4 failed to compress a frame");
        }
        const uint32_t frame_size = static_cast<uint32_t>(kFrameHeaderBytes) + compressed;
        const uint32_t decompressed_size = static_cast<uint32_t>(input_size);
        frame[0] = static_cast<char>(kMethodLz4);
        std::memcpy(frame.data() + 1, &frame_size, 4);
        std::memcpy(frame.data() + 5, &decompressed_size, 4);
        frame.resize(frame_size);
        const Hash128 checksum = cityHash128(frame.data(), frame.size());
        writeFixed(out, checksum.low);
        writeFixed(out, checksum.high);
        out.writeBytes(frame.data(), frame.size());
        offset += input_size;
    } while (offset < data.size());
}

FrameHeader parseFrameHeader(const char* header, size_t max_frame_bytes)
{
    FrameHeader parsed;
    parsed.method = static_cast<uint8_t>(header[0]);
    std::memcpy(&parsed.frame_size, header + 1, 4);
    std::memcpy(&parsed.decompressed_size, header + 5, 4);
    if (parsed.method != kMethodLz4 && parsed.method != kMethodZstd && parsed.method != kMethodNone)
    {
        throw Exception(
            ErrorCode::kUnknownCompressionMethod,
            fmt::format("Unknown compression method 0x{:02x} in a frame", parsed.method));
    }
    if (parsed.frame_size < kFrameHeaderBytes || parsed.frame_size > max_frame_bytes ||
        parsed.decompressed_size > max_frame_bytes)
    {
        throw Exception(ErrorCode::kTooLargeSize,
                        fmt::format("Compressed frame of {} bytes ({} decompressed) is outside "
                                    "[9, {}]",
                                    parsed.frame_size, parsed.decompressed_size, max_frame_bytes));
    }
    return parsed;
}

void decodeFrame(const Hash128& checksum, std::string_view frame, const FrameHeader& header,
                 char* out)
{
    if (cityHash128(frame.data(), frame.size()) != checksum)
    {
        throw Exception(ErrorCode::kChecksumDoesntMatch,
                        "Checksum of a compressed frame does not match its contents");
    }
    const char* payload = frame.data() + kFrameHeaderBytes;
    const size_t payload_size = frame.size() - kFrameHeaderBytes;
    const uint32_t size = header.decompressed_size;
    if (header.method == kMethodNone)
    {
        if (payload_size != size)
        {
            throw Exception(ErrorCode::kCorruptedData,
                            "Uncompressed frame's sizes disagree with each other");
        }
        std::memcpy(out, payload, size);
    }
    else if (header.method == kMethodZstd)
    {
        const size_t written = ZSTD_decompress(out, size, payload, payload_size);
        if (ZSTD_isError(written) || written != size)
        {
            throw Exception(ErrorCode::kCorruptedData,
                            "ZSTD frame does not decompress to its declared size");
        }
    }
    else
    {
        const int written = LZ4_decompress_safe(payload, out, static_cast<int>(payload_size),
                                                static_cast<int>(size));
        if (written < 0 || static_cast<uint32_t>(written) != size)
        {
            throw Exception(ErrorCode::kCorruptedData,
                            "LZ4 frame does not decompress to its declared size");
        }
    }
}

bool CompressedReadBuffer::fill()
{
    // Each frame starts on a checksum: the end of the source between frames is a clean end.
    if (source_.eof())
    {
        return false;
    }
    Hash128 expected;
    expected.low = readFixed<uint64_t>(source_, "compressed frame checksum");
    expected.high = readFixed<uint64_t>(source_, "compressed frame checksum");
    frame_.resize(kFrameHeaderBytes);
    source_.readBytes(frame_.data(), kFrameHeaderBytes, "compressed frame header");
    const FrameHeader header = parseFrameHeader(frame_.data(), max_frame_bytes_);
    frame_.resize(header.frame_size);
    source_.readBytes(frame_.data() + kFrameHeaderBytes, header.frame_size - kFrameHeaderBytes,
                      "compressed frame payload");
    decompressed_.resize(header.decompressed_size);
    decodeFrame(expected, frame_, header, decompressed_.data());
    position_ = decompressed_.data();
    end_ = decompressed_.data() + decompressed_.size();
    return true;
}

}  // namespace granary::server
