#include "server/compression.h"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include "engine/common/exception.h"
#include "server/city_hash.h"

namespace granary::server
{

void compressFrames(std::string_view data, WriteBuffer& out)
{
    std::string frame;
    size_t offset = 0;
    do
    {
        const size_t input_size = std::min(kMaxFrameInputBytes, data.size() - offset);
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
    const uint8_t method = static_cast<uint8_t>(frame_[0]);
    uint32_t frame_size;
    uint32_t decompressed_size;
    std::memcpy(&frame_size, frame_.data() + 1, 4);
    std::memcpy(&decompressed_size, frame_.data() + 5, 4);
    if (method != kMethodLz4 && method != kMethodZstd && method != kMethodNone)
    {
        throw Exception(ErrorCode::kUnknownCompressionMethod,
                        fmt::format("Unknown compression method 0x{:02x} in a frame", method));
    }
    if (frame_size < kFrameHeaderBytes || frame_size > max_frame_bytes_ ||
        decompressed_size > max_frame_bytes_)
    {
        throw Exception(ErrorCode::kTooLargeSize,
                        fmt::format("Compressed frame of {} bytes ({} decompressed) is outside "
                                    "[9, {}]",
                                    frame_size, decompressed_size, max_frame_bytes_));
    }
    frame_.resize(frame_size);
    source_.readBytes(frame_.data() + kFrameHeaderBytes, frame_size - kFrameHeaderBytes,
                      "compressed frame payload");
    if (cityHash128(frame_.data(), frame_.size()) != expected)
    {
        throw Exception(ErrorCode::kChecksumDoesntMatch,
                        "Checksum of a compressed frame does not match its contents");
    }
    const char* payload = frame_.data() + kFrameHeaderBytes;
    const size_t payload_size = frame_size - kFrameHeaderBytes;
    if (method == kMethodNone)
    {
        if (payload_size != decompressed_size)
        {
            throw Exception(ErrorCode::kCorruptedData,
                            "Uncompressed frame's sizes disagree with each other");
        }
        decompressed_.assign(payload, payload_size);
    }
    else if (method == kMethodZstd)
    {
        decompressed_.resize(decompressed_size);
        const size_t written =
            ZSTD_decompress(decompressed_.data(), decompressed_size, payload, payload_size);
        if (ZSTD_isError(written) || written != decompressed_size)
        {
            throw Exception(ErrorCode::kCorruptedData,
                            "ZSTD frame does not decompress to its declared size");
        }
    }
    else
    {
        decompressed_.resize(decompressed_size);
        const int written =
            LZ4_decompress_safe(payload, decompressed_.data(), static_cast<int>(payload_size),
                                static_cast<int>(decompressed_size));
        if (written < 0 || static_cast<uint32_t>(written) != decompressed_size)
        {
            throw Exception(ErrorCode::kCorruptedData,
                            "LZ4 frame does not decompress to its declared size");
        }
    }
    position_ = decompressed_.data();
    end_ = decompressed_.data() + decompressed_.size();
    return true;
}

}  // namespace granary::server
