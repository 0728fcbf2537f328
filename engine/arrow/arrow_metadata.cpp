#include "engine/arrow/arrow_metadata.h"

#include <cstdint>
#include <cstring>

#include "engine/common/exception.h"

namespace granary::arrow
{
namespace
{

void appendInt32(std::string& out, int32_t value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

/// The next int32 of `cursor`, which it passes; Exception(kIncorrectData) when negative.
int32_t readLength(const char*& cursor, const char* what)
{
    int32_t value;
    std::memcpy(&value, cursor, sizeof(value));
    cursor += sizeof(value);
    if (value < 0)
    {
        throw Exception(ErrorCode::kIncorrectData,
                        std::string("Arrow schema metadata: negative ") + what);
    }
    return value;
}

std::string readBytes(const char*& cursor, const char* what)
{
    const int32_t length = readLength(cursor, what);
    std::string bytes(cursor, static_cast<size_t>(length));
    cursor += length;
    return bytes;
}

}  // namespace

std::string encodeArrowMetadata(const ArrowMetadata& metadata)
{
    std::string encoded;
    appendInt32(encoded, static_cast<int32_t>(metadata.size()));
    for (const auto& [key, value] : metadata)
    {
        appendInt32(encoded, static_cast<int32_t>(key.size()));
        encoded += key;
        appendInt32(encoded, static_cast<int32_t>(value.size()));
        encoded += value;
    }
    return encoded;
}

ArrowMetadata decodeArrowMetadata(const char* encoded)
{
    ArrowMetadata metadata;
    if (encoded == nullptr)
    {
        return metadata;
    }
    const char* cursor = encoded;
    const int32_t pairs = readLength(cursor, "pair count");
    for (int32_t i = 0; i < pairs; ++i)
    {
        std::string key = readBytes(cursor, "key length");
        std::string value = readBytes(cursor, "value length");
        metadata.emplace_back(std::move(key), std::move(value));
    }
    return metadata;
}

}  // namespace granary::arrow
