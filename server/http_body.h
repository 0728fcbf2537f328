#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace granary::server
{

/// Decodes a request body's Content-Encoding: "zstd" (a zstd stream) or "lz4" (an LZ4 frame,
/// as the lz4 tool writes); gzip, deflate and br arrive already decoded by the HTTP library.
/// An empty name or "identity" returns the body as it is. Another name is
/// kUnsupportedMethod (415); a damaged stream is kCannotReadAllData or kCorruptedData; output
/// past `max_bytes` is kQueryIsTooLarge.
std::string decodeContentEncoding(std::string_view encoding, std::string body, size_t max_bytes);

/// The body of a `decompress=1` request: consecutive CityHash-checked frames (LZ4, ZSTD or
/// none), as in the native protocol. Each frame's checksum is verified before it is
/// decompressed; a frame cut short is kCannotReadAllData, a bad checksum
/// kChecksumDoesntMatch, an unknown method kUnknownCompressionMethod (with a hint when the
/// body looks like it was not framed at all), a frame above `max_frame_bytes` kTooLargeSize,
/// a total above `max_bytes` kQueryIsTooLarge.
std::string decodeCompressedFrames(std::string_view body, size_t max_frame_bytes, size_t max_bytes);

}  // namespace granary::server
