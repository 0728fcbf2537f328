#include "server/wire.h"

#include <fmt/format.h>

#include "engine/common/exception.h"
#include "engine/common/var_uint.h"

namespace granary::server
{

void ReadBuffer::readBytes(void* to, size_t count, std::string_view what)
{
    char* destination = static_cast<char*>(to);
    while (count > 0)
    {
        if (position_ == end_ && !fill())
        {
            throw Exception(ErrorCode::kNetworkError,
                            fmt::format("Unexpected end of stream while reading {}", what));
        }
        const size_t chunk = std::min(count, buffered());
        std::memcpy(destination, position_, chunk);
        position_ += chunk;
        destination += chunk;
        count -= chunk;
    }
}

uint8_t ReadBuffer::readByte(std::string_view what)
{
    uint8_t value;
    readBytes(&value, 1, what);
    return value;
}

bool ReadBuffer::eof()
{
    return position_ == end_ && !fill();
}

void writeVarUInt(WriteBuffer& out, uint64_t value)
{
    appendVarUInt(value, out.bytes());
}

uint64_t readVarUInt(ReadBuffer& in, std::string_view what)
{
    uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7)
    {
        const uint8_t byte = in.readByte(what);
        value |= static_cast<uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0)
        {
            return value;
        }
    }
    throw Exception(ErrorCode::kCannotParseInput,
                    fmt::format("VarUInt of {} is longer than 10 bytes", what));
}

void writeString(WriteBuffer& out, std::string_view value)
{
    writeVarUInt(out, value.size());
    out.writeBytes(value.data(), value.size());
}

std::string readString(ReadBuffer& in, size_t max_bytes, std::string_view what)
{
    const uint64_t size = readVarUInt(in, what);
    if (size > max_bytes)
    {
        throw Exception(
            ErrorCode::kTooLargeSize,
            fmt::format("{} is {} bytes, more than the limit of {}", what, size, max_bytes));
    }
    std::string value(size, '\0');
    in.readBytes(value.data(), size, what);
    return value;
}

}  // namespace granary::server
