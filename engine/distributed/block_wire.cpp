#include "engine/distributed/block_wire.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/common/exception.h"

namespace granary::distributed
{
namespace
{

/// "GRXB": the first bytes of every block on the wire, so that a message of anything else is
/// told apart from a damaged block.
constexpr uint32_t kBlockMagic = 0x42585247;
/// Strings longer than this do not fit the 32-bit length a string is sent with.
constexpr size_t kMaxStringBytes = UINT32_MAX;

size_t validityBytes(size_t rows)
{
    return (rows + 7) / 8;
}

void putColumn(std::string& out, const std::string& name, const Column& column)
{
    const ColumnView view = column.view();
    appendWireValue(out, static_cast<uint32_t>(name.size()));
    out.append(name);
    appendWireValue(out, static_cast<uint8_t>(view.type));
    appendWireValue(out, static_cast<uint8_t>(view.validity != nullptr));
    if (view.validity != nullptr)
    {
        out.append(reinterpret_cast<const char*>(view.validity), validityBytes(view.rows));
    }
    if (!isString(view.type))
    {
        out.append(static_cast<const char*>(view.data), view.rows * fixedWidth(view.type));
        return;
    }
    for (size_t row = 0; row < view.rows; ++row)
    {
        const size_t length = view.offsets[row + 1] - view.offsets[row];
        if (length > kMaxStringBytes)
        {
            throw Exception(ErrorCode::kBadArguments,
                            "column '" + name + "' row " + std::to_string(row) + " holds " +
                                std::to_string(length) + " bytes, more than a message carries");
        }
        appendWireValue(out, static_cast<uint32_t>(length));
    }
    out.append(view.chars + view.offsets[0], view.offsets[view.rows] - view.offsets[0]);
}

Column getColumn(WireReader& reader, size_t rows, const std::string& name)
{
    const auto type_code = reader.get<uint8_t>();
    if (type_code > static_cast<uint8_t>(TypeId::String))
    {
        reader.fail("column '" + name + "' has unknown type code " + std::to_string(type_code));
    }
    const auto type = static_cast<TypeId>(type_code);
    const bool has_validity = reader.get<uint8_t>() != 0;
    const char* validity = has_validity ? reader.take(validityBytes(rows)) : nullptr;
    Column column(type);
    if (!isString(type))
    {
        column.resizeFixedUninitialized(rows);
        const size_t bytes = rows * fixedWidth(type);
        if (bytes != 0)
        {
            std::memcpy(column.mutableData<char>(), reader.take(bytes), bytes);
        }
    }
    else
    {
        const char* lengths = reader.take(rows * sizeof(uint32_t));
        uint64_t chars = 0;
        for (size_t row = 0; row < rows; ++row)
        {
            uint32_t length;
            std::memcpy(&length, lengths + row * sizeof(uint32_t), sizeof(length));
            chars += length;
        }
        const char* bytes = reader.take(chars);
        column.resizeStringsUninitialized(rows, chars);
        uint64_t* offsets = column.mutableOffsets();
        offsets[0] = 0;
        for (size_t row = 0; row < rows; ++row)
        {
            uint32_t length;
            std::memcpy(&length, lengths + row * sizeof(uint32_t), sizeof(length));
            offsets[row + 1] = offsets[row] + length;
        }
        if (chars != 0)
        {
            std::memcpy(column.mutableChars(), bytes, chars);
        }
    }
    if (validity != nullptr)
    {
        for (size_t row = 0; row < rows; ++row)
        {
            if ((static_cast<uint8_t>(validity[row / 8]) >> (row % 8) & 1) == 0)
            {
                column.setNull(row);
            }
        }
    }
    return column;
}

}  // namespace

std::string serializeBlock(const Block& block)
{
    std::string out;
    appendWireValue(out, kBlockMagic);
    appendWireValue(out, static_cast<uint32_t>(block.columns.size()));
    appendWireValue(out, static_cast<uint64_t>(block.rows()));
    for (const Block::Entry& entry : block.columns)
    {
        putColumn(out, entry.name, entry.column);
    }
    return out;
}

Block deserializeBlock(std::string_view bytes, std::string_view origin)
{
    WireReader reader(bytes, "a damaged block in " + std::string(origin));
    if (reader.get<uint32_t>() != kBlockMagic)
    {
        reader.fail("it does not start with a block's magic number");
    }
    const auto columns = reader.get<uint32_t>();
    const auto rows = reader.get<uint64_t>();
    // Every row takes at least a byte of every column: a larger count is damage, and would
    // otherwise size buffers before the reads that fail.
    if (columns != 0 && rows > bytes.size())
    {
        reader.fail("a row count of " + std::to_string(rows) + " in " +
                    std::to_string(bytes.size()) + " bytes");
    }
    Block block;
    for (uint32_t c = 0; c < columns; ++c)
    {
        const auto name_bytes = reader.get<uint32_t>();
        std::string name(reader.take(name_bytes), name_bytes);
        Column column = getColumn(reader, rows, name);
        block.columns.push_back({std::move(name), std::move(column)});
    }
    reader.expectEnd();
    return block;
}

const char* WireReader::take(size_t count)
{
    if (count > bytes_.size() - position_)
    {
        fail("truncated at byte " + std::to_string(position_) + " (" + std::to_string(count) +
             " bytes wanted, " + std::to_string(bytes_.size() - position_) + " left)");
    }
    const char* data = bytes_.data() + position_;
    position_ += count;
    return data;
}

void WireReader::expectEnd() const
{
    if (position_ != bytes_.size())
    {
        fail(std::to_string(bytes_.size() - position_) + " bytes left over at the end");
    }
}

void WireReader::fail(const std::string& problem) const
{
    throw Exception(ErrorCode::kIncorrectData, what_ + ": " + problem);
}

size_t serializedRowBytes(const Block& block, size_t row)
{
    size_t bytes = 0;
    for (const Block::Entry& entry : block.columns)
    {
        const ColumnView view = entry.column.view();
        bytes += isString(view.type) ? sizeof(uint32_t) + view.offsets[row + 1] - view.offsets[row]
                                     : fixedWidth(view.type);
    }
    return bytes;
}

}  // namespace granary::distributed
