#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/columns/block.h"

namespace granary::distributed
{

/// Appends `value`'s bytes: numbers travel between ranks as the machine holds them
/// (little-endian; every rank runs the same build).
template <typename T>
void appendWireValue(std::string& out, T value)
{
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

/// Reads a message between ranks front to back; every read is checked against what is
/// left, and a message too short or too long is Exception(kIncorrectData) saying `what`
/// was damaged ("a damaged block in the states from rank 2") and at which byte.
class WireReader
{
public:
    WireReader(std::string_view bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

    template <typename T>
    T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        std::memcpy(&value, take(sizeof(T)), sizeof(T));
        return value;
    }
    /// The next `count` bytes.
    const char* take(size_t count);
    /// Exception(kIncorrectData) unless every byte was read.
    void expectEnd() const;
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::string_view bytes_;
    std::string what_;
    size_t position_ = 0;
};

/// A block as bytes between ranks: what the exchange sends (partial states, result rows).
/// Little-endian; the columns' names, types, NULL bitmaps and values, strings as lengths then
/// bytes. Not a storage format: both ends run the same build.
std::string serializeBlock(const Block& block);

/// The block `bytes` holds. Exception(kIncorrectData) naming `origin` (which rank's message)
/// and the byte where the message is truncated, has bytes left over or names an unknown type.
Block deserializeBlock(std::string_view bytes, std::string_view origin);

/// Bytes serializeBlock would give row `row` of `block`, less the block's fixed overhead:
/// what a message is cut by.
size_t serializedRowBytes(const Block& block, size_t row);

}  // namespace granary::distributed
