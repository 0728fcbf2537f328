#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/common/exception.h"

namespace granary::ingest
{

/// Limits on what one value of a binary format may claim, checked before anything is
/// allocated (ClickHouse's format_binary_max_string_size).
struct BinaryLimits
{
    size_t max_string_bytes = size_t{1} << 30;
    /// Elements of one Array or entries of one Map (format_binary_max_array_size).
    size_t max_array_elements = size_t{1} << 30;
};

/// Reads little-endian values out of a byte range, each read checked against the end; errors
/// name the byte offset (callers add the row and column).
class BinaryCursor
{
public:
    explicit BinaryCursor(std::string_view bytes) : bytes_(bytes) {}

    size_t offset() const { return offset_; }
    bool atEnd() const { return offset_ == bytes_.size(); }
    size_t remaining() const { return bytes_.size() - offset_; }

    template <typename T>
    T readFixed()
    {
        require(sizeof(T));
        T value;
        std::memcpy(&value, bytes_.data() + offset_, sizeof(T));
        offset_ += sizeof(T);
        return value;
    }

    /// `count` bytes, viewed in place.
    std::string_view readBytes(size_t count)
    {
        require(count);
        const std::string_view view = bytes_.substr(offset_, count);
        offset_ += count;
        return view;
    }

    /// The bytes from offset `begin` up to the cursor.
    std::string_view bytesFrom(size_t begin) const { return bytes_.substr(begin, offset_ - begin); }

    /// One byte that must be 0 or 1 (a Bool, a NULL flag): another value is kIncorrectData
    /// naming `what`, as it means the reader lost its place.
    uint8_t readZeroOrOne(std::string_view what);

    /// Unsigned LEB128 of at most 10 bytes whose value fits 64 bits (kIncorrectData otherwise).
    uint64_t readVarUInt();

    /// VarUInt length + bytes; a length above the limit is kTooLargeSize.
    std::string_view readString(const BinaryLimits& limits);
    /// An Array's or Map's VarUInt element count: above the limit kTooLargeArraySize, above
    /// the bytes left kCannotReadAllData (every element takes a byte at least), so that no
    /// claim is acted on before the bytes are seen.
    uint64_t readElementCount(const BinaryLimits& limits);

    /// Throws kCannotReadAllData unless `count` more bytes are there.
    void require(size_t count) const
    {
        if (count > remaining()) [[unlikely]]
        {
            failShort(count);
        }
    }

    /// Throws `problem` with the byte offset it happened at.
    [[noreturn]] void fail(ErrorCode code, const std::string& problem) const;

private:
    [[noreturn]] void failShort(size_t count) const;

    std::string_view bytes_;
    size_t offset_ = 0;
};

}  // namespace granary::ingest
