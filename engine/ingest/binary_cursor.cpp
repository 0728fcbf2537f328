#include "engine/ingest/binary_cursor.h"

#include <fmt/format.h>

namespace granary::ingest
{
namespace
{

/// 10 groups of 7 bits cover 64 bits; the tenth byte may hold only the top bit.
constexpr size_t kMaxVarUIntBytes = 10;

}  // namespace

uint64_t BinaryCursor::readVarUInt()
{
    uint64_t value = 0;
    for (size_t index = 0; index < kMaxVarUIntBytes; ++index)
    {
        const uint8_t byte = readFixed<uint8_t>();
        if (index == kMaxVarUIntBytes - 1 && byte > 1)
        {
            fail(ErrorCode::kIncorrectData, "VarUInt exceeds 64 bits");
        }
        value |= static_cast<uint64_t>(byte & 0x7F) << (7 * index);
        if ((byte & 0x80) == 0)
        {
            return value;
        }
    }
    fail(ErrorCode::kIncorrectData, "VarUInt longer than 10 bytes");
}

uint8_t BinaryCursor::readZeroOrOne(std::string_view what)
{
    const auto value = readFixed<uint8_t>();
    if (value > 1)
    {
        fail(ErrorCode::kIncorrectData, fmt::format("{} is {}, not 0 or 1", what, value));
    }
    return value;
}

std::string_view BinaryCursor::readString(const BinaryLimits& limits)
{
    const uint64_t length = readVarUInt();
    if (length > limits.max_string_bytes)
    {
        fail(ErrorCode::kTooLargeSize, fmt::format("string of {} bytes is above the limit of {}",
                                                   length, limits.max_string_bytes));
    }
    return readBytes(static_cast<size_t>(length));
}

uint64_t BinaryCursor::readElementCount(const BinaryLimits& limits)
{
    const uint64_t count = readVarUInt();
    if (count > limits.max_array_elements)
    {
        fail(ErrorCode::kTooLargeArraySize,
             fmt::format("array of {} elements is above the limit of {}", count,
                         limits.max_array_elements));
    }
    require(static_cast<size_t>(count));
    return count;
}

void BinaryCursor::fail(ErrorCode code, const std::string& problem) const
{
    throw Exception(code, fmt::format("{} (at byte {})", problem, offset_));
}

void BinaryCursor::failShort(size_t count) const
{
    fail(ErrorCode::kCannotReadAllData,
         fmt::format("Cannot read all data: {} bytes expected, {} left", count, remaining()));
}

}  // namespace granary::ingest
