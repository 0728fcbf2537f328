#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "server/city_hash.h"
#include "server/wire.h"

namespace granary::server
{

/// Frames of the native protocol's compressed stream: a 16-byte CityHash128 v1.0.2 checksum of
/// the rest of the frame, a method byte, the frame's size (9 header bytes included) and the
/// decompressed size as UInt32, then the payload.
inline constexpr size_t kFrameChecksumBytes = 16;
inline constexpr size_t kFrameHeaderBytes = 9;
inline constexpr uint8_t kMethodNone = 0x02;
inline constexpr uint8_t kMethodLz4 = 0x82;
inline constexpr uint8_t kMethodZstd = 0x90;
/// Data is cut into frames of at most this many decompressed bytes, as ClickHouse does.
inline constexpr size_t kMaxFrameInputBytes = 1 << 20;

/// The header that follows a frame's checksum: method byte, frame size (header included),
/// decompressed size.
struct FrameHeader
{
    uint8_t method = 0;
    uint32_t frame_size = 0;
    uint32_t decompressed_size = 0;
};

/// Reads the kFrameHeaderBytes at `header`: an unknown method is kUnknownCompressionMethod,
/// sizes past `max_frame_bytes` kTooLargeSize (refused before anything is allocated).
FrameHeader parseFrameHeader(const char* header, size_t max_frame_bytes);

/// Checks `frame` (header and payload) against `checksum` (kChecksumDoesntMatch) before
/// decompressing its payload into `out`, which has room for header.decompressed_size bytes
/// (kCorruptedData when the payload does not decode to exactly that).
void decodeFrame(const Hash128& checksum, std::string_view frame, const FrameHeader& header,
                 char* out);

/// Appends `data` to `out` as LZ4 frames of up to `frame_input_bytes` uncompressed bytes each.
void compressFrames(std::string_view data, WriteBuffer& out,
                    size_t frame_input_bytes = kMaxFrameInputBytes);

/// Reads the decompressed bytes of consecutive frames from `source`. Checksums are verified
/// before decompressing; sizes above `max_frame_bytes` are refused before allocating.
class CompressedReadBuffer : public ReadBuffer
{
public:
    CompressedReadBuffer(ReadBuffer& source, size_t max_frame_bytes)
        : source_(source), max_frame_bytes_(max_frame_bytes)
    {
    }

protected:
    bool fill() override;

private:
    ReadBuffer& source_;
    size_t max_frame_bytes_;
    std::string frame_;
    std::string decompressed_;
};

}  // namespace granary::server
