#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace granary::server
{

/// A pull source of bytes (socket, decompressed frames, memory). Reads past the end throw
/// Exception(kNetworkError) naming what was being read, never return garbage.
class ReadBuffer
{
public:
    virtual ~ReadBuffer() = default;

    void readBytes(void* to, size_t count, std::string_view what);
    uint8_t readByte(std::string_view what);
    /// True when no byte is buffered and the source has no more (may block to find out).
    bool eof();
    /// Bytes already buffered: readable without blocking.
    size_t buffered() const { return static_cast<size_t>(end_ - position_); }

protected:
    /// Makes more bytes available in [position_, end_); false at the end of the source.
    virtual bool fill() = 0;

    const char* position_ = nullptr;
    const char* end_ = nullptr;
};

class MemoryReadBuffer : public ReadBuffer
{
public:
    explicit MemoryReadBuffer(std::string_view bytes)
    {
        position_ = bytes.data();
        end_ = bytes.data() + bytes.size();
    }

protected:
    bool fill() override { return false; }
};

/// Bytes being assembled for one write to the peer.
class WriteBuffer
{
public:
    void writeBytes(const void* data, size_t count)
    {
        bytes_.append(static_cast<const char*>(data), count);
    }
    void writeByte(uint8_t value) { bytes_.push_back(static_cast<char>(value)); }
    std::string& bytes() { return bytes_; }
    const std::string& bytes() const { return bytes_; }
    size_t size() const { return bytes_.size(); }
    void clear() { bytes_.clear(); }

private:
    std::string bytes_;
};

/// LEB128 unsigned integer, as ClickHouse's VarUInt (at most 10 bytes).
void writeVarUInt(WriteBuffer& out, uint64_t value);
uint64_t readVarUInt(ReadBuffer& in, std::string_view what);

/// Length (VarUInt) then bytes. The reader refuses lengths above max_bytes before allocating.
void writeString(WriteBuffer& out, std::string_view value);
std::string readString(ReadBuffer& in, size_t max_bytes, std::string_view what);

/// Little-endian fixed-width value (the machine is little-endian, as the protocol).
template <typename T>
requires std::is_arithmetic_v<T>
void writeFixed(WriteBuffer& out, T value)
{
    out.writeBytes(&value, sizeof(T));
}

template <typename T>
requires std::is_arithmetic_v<T> T readFixed(ReadBuffer& in, std::string_view what)
{
    T value;
    in.readBytes(&value, sizeof(T), what);
    return value;
}

}  // namespace granary::server
