#include "engine/storage/encoding/packed_ints.h"

#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "engine/common/exception.h"

namespace granary::encoding
{
namespace
{

uint64_t load64(const char* at)
{
    uint64_t word;
    std::memcpy(&word, at, sizeof(word));
    return word;
}

/// Eight values of W bits fill exactly W bytes: unrolled by eight, every shift and offset is a
/// constant. Groups of up to 16 bytes are loaded once (one or two words) and cut in registers.
template <typename U, unsigned W>
void unpackWidth(const char* bits, size_t count, uint64_t base, U* out)
{
    constexpr uint64_t kMask = W == 0 ? 0 : (uint64_t(1) << W) - 1;
    size_t i = 0;
    for (; i + 8 <= count; i += 8)
    {
        const char* group = bits + i / 8 * W;
        if constexpr (W <= 8)
        {
            const uint64_t word = load64(group);
#pragma GCC unroll 8
            for (unsigned j = 0; j < 8; ++j)
            {
                out[i + j] = U(base + ((word >> (j * W)) & kMask));
            }
        }
        else if constexpr (W <= 16)
        {
            const unsigned __int128 word =
                (static_cast<unsigned __int128>(load64(group + 8)) << 64) | load64(group);
#pragma GCC unroll 8
            for (unsigned j = 0; j < 8; ++j)
            {
                out[i + j] = U(base + (uint64_t(word >> (j * W)) & kMask));
            }
        }
        else
        {
#pragma GCC unroll 8
            for (unsigned j = 0; j < 8; ++j)
            {
                out[i + j] = U(base + ((load64(group + j * W / 8) >> (j * W % 8)) & kMask));
            }
        }
    }
    for (; i < count; ++i)
    {
        const size_t bit = i * W;
        out[i] = U(base + ((load64(bits + bit / 8) >> (bit % 8)) & kMask));
    }
}

template <typename U>
using Unpacker = void (*)(const char*, size_t, uint64_t, U*);

template <typename U, size_t... W>
constexpr std::array<Unpacker<U>, sizeof...(W)> unpackers(std::index_sequence<W...>)
{
    return {&unpackWidth<U, unsigned(W)>...};
}

[[noreturn]] void corrupted(const std::string& problem)
{
    throw Exception(ErrorCode::kCorruptedData, problem);
}

}  // namespace

PackedInts PackedInts::frameOf(std::span<const uint64_t> values, bool signed_order)
{
    PackedInts frame;
    if (values.empty())
    {
        return frame;
    }
    // Flipping the sign bit makes unsigned comparison order int64 values.
    const uint64_t flip = signed_order ? uint64_t(1) << 63 : 0;
    uint64_t low = values[0] ^ flip;
    uint64_t high = low;
    for (const uint64_t value : values)
    {
        low = std::min(low, value ^ flip);
        high = std::max(high, value ^ flip);
    }
    frame.base = low ^ flip;
    frame.width = unsigned(std::bit_width(high - low));
    return frame;
}

PackedInts PackedInts::readHeader(const char* bytes, size_t size)
{
    if (size < kHeaderBytes)
    {
        corrupted("packed integers cut short");
    }
    PackedInts frame;
    std::memcpy(&frame.base, bytes, sizeof(frame.base));
    frame.width = static_cast<unsigned char>(bytes[sizeof(frame.base)]);
    return frame;
}

template <typename U>
size_t unpackInts(const char* bytes, size_t size, size_t count, U* out)
{
    static constexpr auto kUnpackers =
        unpackers<U>(std::make_index_sequence<PackedInts::kMaxWidth + 1>());
    const PackedInts frame = PackedInts::readHeader(bytes, size);
    if (frame.width > PackedInts::kMaxWidth)
    {
        corrupted("packed integers of width " + std::to_string(frame.width));
    }
    const size_t needed = frame.serializedBytes(count);
    if (needed > size)
    {
        corrupted("packed integers cut short");
    }
    kUnpackers[frame.width](bytes + PackedInts::kHeaderBytes, count, frame.base, out);
    return needed;
}

template size_t unpackInts<uint8_t>(const char*, size_t, size_t, uint8_t*);
template size_t unpackInts<uint16_t>(const char*, size_t, size_t, uint16_t*);
template size_t unpackInts<uint32_t>(const char*, size_t, size_t, uint32_t*);
template size_t unpackInts<uint64_t>(const char*, size_t, size_t, uint64_t*);

}  // namespace granary::encoding
