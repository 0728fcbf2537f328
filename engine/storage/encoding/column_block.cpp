#include "engine/storage/encoding/column_block.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <span>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "engine/storage/encoding/packed_ints.h"

namespace granary::encoding
{
namespace
{

[[noreturn]] void corrupted(const std::string& problem)
{
    throw Exception(ErrorCode::kCorruptedData, problem);
}

/// Calls f(TypeTag<U>{}) with the unsigned integer as wide as `type`'s values: blocks move
/// fixed-width values as bits of that width.
template <typename F>
decltype(auto) dispatchWidth(TypeId type, F&& f)
{
    switch (fixedWidth(type))
    {
        case 1:
            return f(TypeTag<uint8_t>{});
        case 2:
            return f(TypeTag<uint16_t>{});
        case 4:
            return f(TypeTag<uint32_t>{});
        default:
            return f(TypeTag<uint64_t>{});
    }
}

void appendBytes(std::string& out, const void* bytes, size_t size)
{
    out.append(static_cast<const char*>(bytes), size);
}

/// Integers of type T (Date and DateTime included) in the cheapest of constant, frame of
/// reference, delta and plain. Bounds are found in T itself, so the loops vectorize; frames
/// and deltas are taken modulo T's width (U arithmetic), as the decoder narrows.
template <typename T>
Encoding encodeIntegers(const T* values, size_t rows, std::string& payload)
{
    using U = std::make_unsigned_t<T>;
    using S = std::make_signed_t<T>;
    T low = values[0];
    T high = values[0];
    for (size_t row = 1; row < rows; ++row)
    {
        low = std::min(low, values[row]);
        high = std::max(high, values[row]);
    }
    if (low == high)
    {
        appendBytes(payload, values, sizeof(T));
        return Encoding::kConstant;
    }
    // Differences of neighbours as signed values of T's width, for sorted or slowly changing
    // values.
    S delta_low = std::numeric_limits<S>::max();
    S delta_high = std::numeric_limits<S>::min();
    for (size_t row = 1; row < rows; ++row)
    {
        const S delta = S(U(U(values[row]) - U(values[row - 1])));
        delta_low = std::min(delta_low, delta);
        delta_high = std::max(delta_high, delta);
    }
    const PackedInts frame{uint64_t(U(low)), unsigned(std::bit_width(U(U(high) - U(low))))};
    const PackedInts delta_frame{uint64_t(U(delta_low)),
                                 unsigned(std::bit_width(U(U(delta_high) - U(delta_low))))};
    const size_t plain_bytes = rows * sizeof(T);
    const size_t frame_bytes = frame.serializedBytes(rows);
    const size_t delta_bytes = sizeof(uint64_t) + delta_frame.serializedBytes(rows - 1);
    const bool frame_fits = frame.width <= PackedInts::kMaxWidth;
    const bool delta_fits = delta_frame.width <= PackedInts::kMaxWidth;
    if (delta_fits && delta_bytes < plain_bytes && (!frame_fits || delta_bytes < frame_bytes))
    {
        const uint64_t first = uint64_t(U(values[0]));
        appendBytes(payload, &first, sizeof(first));
        delta_frame.packOffsets(
            rows - 1,
            [&](size_t i) { return uint64_t(U(U(values[i + 1]) - U(values[i]) - U(delta_low))); },
            payload);
        return Encoding::kDelta;
    }
    if (frame_fits && frame_bytes < plain_bytes)
    {
        frame.packOffsets(
            rows, [&](size_t i) { return uint64_t(U(U(values[i]) - U(low))); }, payload);
        return Encoding::kFrameOfReference;
    }
    appendBytes(payload, values, plain_bytes);
    return Encoding::kPlain;
}

Encoding encodeFixed(const ColumnView& rows, EncodeScratch& scratch)
{
    std::string& payload = scratch.payload;
    if (isInteger(rows.type))
    {
        return dispatchFixedType(rows.type,
                                 [&]<typename T>(TypeTag<T>)
                                 {
                                     if constexpr (std::is_integral_v<T>)
                                     {
                                         return encodeIntegers(static_cast<const T*>(rows.data),
                                                               rows.rows, payload);
                                     }
                                     else
                                     {
                                         return Encoding::kPlain;  // Not reached: integers only.
                                     }
                                 });
    }
    // Floats: constant when every value has the same bits (NaN and -0 included), else plain.
    const size_t width = fixedWidth(rows.type);
    const char* bytes = static_cast<const char*>(rows.data);
    bool constant = true;
    for (size_t row = 1; row < rows.rows && constant; ++row)
    {
        constant = std::memcmp(bytes, bytes + row * width, width) == 0;
    }
    appendBytes(payload, bytes, constant ? width : rows.rows * width);
    return constant ? Encoding::kConstant : Encoding::kPlain;
}

Encoding encodeStrings(const ColumnView& rows, StringDictionaryBuilder* dictionary,
                       EncodeScratch& scratch)
{
    std::string& payload = scratch.payload;
    const std::string_view first = rows.stringAt(0);
    bool constant = true;
    std::vector<uint64_t>& lengths = scratch.values;
    lengths.resize(rows.rows);
    for (size_t row = 0; row < rows.rows; ++row)
    {
        lengths[row] = rows.offsets[row + 1] - rows.offsets[row];
        constant = constant && rows.stringAt(row) == first;
    }
    if (constant)
    {
        payload.append(first);
        return Encoding::kConstant;
    }
    const PackedInts length_frame = PackedInts::frameOf(lengths, false);
    const size_t chars = rows.offsets[rows.rows] - rows.offsets[0];
    const size_t plain_bytes = length_frame.serializedBytes(rows.rows) + chars;
    if (dictionary != nullptr && scratch.dictionary.shouldTry())
    {
        const auto codes = dictionary->tryCode(rows, plain_bytes);
        scratch.dictionary.record(codes.has_value());
        if (codes)
        {
            PackedInts::frameOf(*codes, false).pack(*codes, payload);
            return Encoding::kDictionary;
        }
    }
    // The lengths stay outside the codec, so that the reader knows where each string goes
    // and decompresses the bytes straight into its column.
    length_frame.pack(lengths, scratch.prefix);
    payload.append(rows.chars + rows.offsets[0], chars);
    return Encoding::kPlain;
}

void writeHeader(const BlockHeader& header, std::string& out)
{
    char bytes[BlockHeader::kBytes] = {};
    bytes[0] = char(header.encoding);
    bytes[1] = char(header.codec);
    std::memcpy(bytes + 4, &header.rows, sizeof(uint32_t));
    std::memcpy(bytes + 8, &header.stored_bytes, sizeof(uint32_t));
    std::memcpy(bytes + 12, &header.payload_bytes, sizeof(uint32_t));
    out.append(bytes, sizeof(bytes));
}

template <typename U>
void decodeFixed(Encoding encoding, std::string_view payload, size_t rows, U* out)
{
    auto expect_size = [&](size_t size)
    {
        if (payload.size() != size)
        {
            corrupted("block payload of " + std::to_string(payload.size()) + " bytes where " +
                      std::to_string(size) + " were expected");
        }
    };
    switch (encoding)
    {
        case Encoding::kPlain:
            expect_size(rows * sizeof(U));
            std::memcpy(out, payload.data(), payload.size());
            return;
        case Encoding::kConstant:
        {
            expect_size(sizeof(U));
            U value;
            std::memcpy(&value, payload.data(), sizeof(U));
            std::fill(out, out + rows, value);
            return;
        }
        case Encoding::kFrameOfReference:
            expect_size(unpackInts(payload.data(), payload.size(), rows, out));
            return;
        case Encoding::kDelta:
        {
            uint64_t first = 0;
            if (payload.size() < sizeof(first) || rows == 0)
            {
                corrupted("delta block cut short");
            }
            std::memcpy(&first, payload.data(), sizeof(first));
            expect_size(sizeof(first) + unpackInts(payload.data() + sizeof(first),
                                                   payload.size() - sizeof(first), rows - 1,
                                                   out + 1));
            out[0] = U(first);
            for (size_t row = 1; row < rows; ++row)
            {
                out[row] = U(out[row] + out[row - 1]);
            }
            return;
        }
        default:
            corrupted("encoding " + std::to_string(int(encoding)) + " in a fixed-width column");
    }
}

/// memcpy for string bytes: an empty column's chars may be a null pointer, which memcpy must
/// not see even for no bytes.
void copyBytes(char* to, const char* from, size_t size)
{
    if (size > 0)
    {
        std::memcpy(to, from, size);
    }
}

/// Appends `rows` strings of the given lengths (read by `length_of(row)`), their bytes
/// copied by `copy(row, destination)`.
template <typename LengthOf, typename Copy>
void appendStrings(Column& out, size_t rows, LengthOf length_of, Copy copy)
{
    const size_t old_rows = out.size();
    const uint64_t old_chars = out.mutableOffsets()[old_rows];
    uint64_t chars = 0;
    for (size_t row = 0; row < rows; ++row)
    {
        chars += length_of(row);
    }
    out.resizeStringsUninitialized(old_rows + rows, old_chars + chars);
    uint64_t* offsets = out.mutableOffsets() + old_rows;
    char* destination = out.mutableChars();
    for (size_t row = 0; row < rows; ++row)
    {
        offsets[row + 1] = offsets[row] + length_of(row);
        copy(row, destination + offsets[row]);
    }
}

/// A plain string block: the packed lengths, then the bytes through the block's codec,
/// decompressed into `out`'s chars where they belong.
void decodePlainStrings(const BlockHeader& header, std::string_view stored, Column& out)
{
    thread_local std::vector<uint64_t> lengths;
    lengths.resize(header.rows);
    const size_t packed = unpackInts(stored.data(), stored.size(), header.rows, lengths.data());
    const std::string_view bytes = stored.substr(packed);
    uint64_t total = 0;
    for (const uint64_t length : lengths)
    {
        total += length;
    }
    if (total != header.payload_bytes || !plausiblePayloadSize(header.codec, bytes, total))
    {
        corrupted("string lengths do not add up to the block's bytes");
    }
    const size_t old_rows = out.size();
    const uint64_t old_chars = out.mutableOffsets()[old_rows];
    out.resizeStringsUninitialized(old_rows + header.rows, old_chars + total);
    uint64_t* offsets = out.mutableOffsets() + old_rows;
    for (size_t row = 0; row < header.rows; ++row)
    {
        offsets[row + 1] = offsets[row] + lengths[row];
    }
    decompressPayload(header.codec, bytes, out.mutableChars() + old_chars, total);
}

/// The codes of a dictionary block's payload, each checked against the dictionary's entries.
void unpackDictionaryCodes(std::string_view payload, size_t rows, size_t entries, uint32_t* codes)
{
    // Codes are unpacked as uint32_t: a frame that could hold a code past the dictionary (or
    // one that would wrap) is refused before, the largest code after.
    const PackedInts frame = PackedInts::readHeader(payload.data(), payload.size());
    if (entries > std::numeric_limits<uint32_t>::max() / 4 || frame.base >= entries ||
        frame.width > unsigned(std::bit_width(entries)))
    {
        corrupted("dictionary codes framed from " + std::to_string(frame.base) + " in " +
                  std::to_string(frame.width) + " bits for " + std::to_string(entries) +
                  " entries");
    }
    if (unpackInts(payload.data(), payload.size(), rows, codes) != payload.size())
    {
        corrupted("dictionary block longer than its codes");
    }
    // The largest code alone decides (a loop the compiler vectorizes); the error names it.
    if (const uint32_t* largest = std::max_element(codes, codes + rows);
        largest != codes + rows && *largest >= entries)
    {
        corrupted("dictionary code " + std::to_string(*largest) + " past the " +
                  std::to_string(entries) + " entries");
    }
}

/// The block's header, its row count checked against the reader's.
BlockHeader readBlockHeaderOfRows(std::string_view bytes, size_t expected_rows)
{
    const BlockHeader header = readBlockHeader(bytes);
    if (header.rows != expected_rows)
    {
        corrupted("block of " + std::to_string(header.rows) + " rows where " +
                  std::to_string(expected_rows) + " were expected");
    }
    return header;
}

/// A constant or dictionary string block; appends the rows of `selection` only when it is not
/// empty (the values are looked up per row, so other rows cost nothing).
void decodeStrings(Encoding encoding, std::string_view payload, size_t rows,
                   const ColumnView& dictionary, std::span<const uint32_t> selection, Column& out)
{
    thread_local std::vector<uint32_t> codes;
    const size_t appended = selection.empty() ? rows : selection.size();
    auto source_row = [&](size_t row) { return selection.empty() ? row : selection[row]; };
    switch (encoding)
    {
        case Encoding::kConstant:
            appendStrings(
                out, appended, [&](size_t) { return payload.size(); },
                [&](size_t, char* to) { copyBytes(to, payload.data(), payload.size()); });
            return;
        case Encoding::kDictionary:
        {
            codes.resize(rows);
            unpackDictionaryCodes(payload, rows, dictionary.rows, codes.data());
            appendStrings(
                out, appended,
                [&](size_t row)
                {
                    const uint32_t code = codes[source_row(row)];
                    return dictionary.offsets[code + 1] - dictionary.offsets[code];
                },
                [&](size_t row, char* to)
                {
                    const std::string_view entry = dictionary.stringAt(codes[source_row(row)]);
                    copyBytes(to, entry.data(), entry.size());
                });
            return;
        }
        default:
            corrupted("encoding " + std::to_string(int(encoding)) + " in a string column");
    }
}

/// The payload of a block other than plain strings, checked and decompressed (into a buffer
/// of the calling thread, valid until its next call).
std::string_view decompressedPayload(const BlockHeader& header, std::string_view payload,
                                     TypeId type)
{
    // Every fixed-width encoding is at most the plain values and a frame's header.
    constexpr size_t kMaxFixedOverhead = 64;
    if (!plausiblePayloadSize(header.codec, payload, header.payload_bytes) ||
        (!isString(type) &&
         header.payload_bytes > header.rows * fixedWidth(type) + kMaxFixedOverhead))
    {
        corrupted("block claims " + std::to_string(header.payload_bytes) + " bytes from " +
                  std::to_string(header.stored_bytes));
    }
    thread_local std::string decompressed;
    if (header.codec == Codec::kNone)
    {
        return payload;
    }
    decompressed.resize(header.payload_bytes);
    decompressPayload(header.codec, payload, decompressed.data(), header.payload_bytes);
    return decompressed;
}

/// Every encoding but plain strings: the payload after the codec, then the values.
void decodeValues(const BlockHeader& header, std::string_view stored, const ColumnView& dictionary,
                  std::span<const uint32_t> selection, Column& out)
{
    const std::string_view payload = decompressedPayload(header, stored, out.type());
    if (isString(out.type()))
    {
        decodeStrings(header.encoding, payload, header.rows, dictionary, selection, out);
        return;
    }
    const size_t old_rows = out.size();
    out.resizeFixedUninitialized(old_rows + header.rows);
    dispatchWidth(
        out.type(), [&]<typename U>(TypeTag<U>)
        { decodeFixed(header.encoding, payload, header.rows, out.mutableData<U>() + old_rows); });
}

}  // namespace

void encodeBlock(const ColumnView& rows, const CodecChoice& codec,
                 StringDictionaryBuilder* dictionary, EncodeScratch& scratch, std::string& out)
{
    if (rows.rows == 0 || rows.rows > std::numeric_limits<uint32_t>::max())
    {
        throw Exception(ErrorCode::kLogicalError,
                        "a block holds 1 to 2^32 - 1 rows, not " + std::to_string(rows.rows));
    }
    scratch.prefix.clear();
    scratch.payload.clear();
    BlockHeader header;
    header.rows = uint32_t(rows.rows);
    header.encoding =
        isString(rows.type) ? encodeStrings(rows, dictionary, scratch) : encodeFixed(rows, scratch);
    header.payload_bytes = uint32_t(scratch.payload.size());
    header.codec = Codec::kNone;
    if (codec.codec != Codec::kNone && scratch.codec.shouldTry())
    {
        header.codec = compressPayload(scratch.payload, codec, scratch.compressed);
        scratch.codec.record(header.codec != Codec::kNone);
    }
    const std::string& stored = header.codec == Codec::kNone ? scratch.payload : scratch.compressed;
    header.stored_bytes = uint32_t(scratch.prefix.size() + stored.size());
    writeHeader(header, out);
    out.append(scratch.prefix);
    out.append(stored);
}

bool decodeDictionaryCodes(std::string_view bytes, size_t expected_rows, size_t dictionary_entries,
                           uint32_t* codes)
{
    if (readBlockHeader(bytes).encoding != Encoding::kDictionary)
    {
        return false;
    }
    const BlockHeader header = readBlockHeaderOfRows(bytes, expected_rows);
    const std::string_view payload = decompressedPayload(
        header, bytes.substr(BlockHeader::kBytes, header.stored_bytes), TypeId::String);
    unpackDictionaryCodes(payload, header.rows, dictionary_entries, codes);
    return true;
}

BlockHeader readBlockHeader(std::string_view bytes)
{
    if (bytes.size() < BlockHeader::kBytes)
    {
        corrupted("block header cut short");
    }
    BlockHeader header;
    header.encoding = Encoding(bytes[0]);
    header.codec = Codec(bytes[1]);
    std::memcpy(&header.rows, bytes.data() + 4, sizeof(uint32_t));
    std::memcpy(&header.stored_bytes, bytes.data() + 8, sizeof(uint32_t));
    std::memcpy(&header.payload_bytes, bytes.data() + 12, sizeof(uint32_t));
    if (header.stored_bytes > bytes.size() - BlockHeader::kBytes)
    {
        corrupted("block of " + std::to_string(header.stored_bytes) + " bytes runs past its end");
    }
    return header;
}

size_t decodeBlock(std::string_view bytes, size_t expected_rows, const ColumnView& dictionary,
                   Column& out, const BlockSelection* selection)
{
    const BlockHeader header = readBlockHeaderOfRows(bytes, expected_rows);
    if (selection != nullptr && !selection->rows.empty() && selection->rows.back() >= header.rows)
    {
        throw Exception(ErrorCode::kLogicalError, "block selection past the block's rows");
    }
    if (selection != nullptr && selection->rows.empty())
    {
        return BlockHeader::kBytes + header.stored_bytes;
    }
    std::string_view payload = bytes.substr(BlockHeader::kBytes, header.stored_bytes);
    // Blocks whose rows cannot be read one by one are decoded whole, then gathered.
    const bool direct = isString(out.type()) && header.encoding != Encoding::kPlain;
    Column& decoded = selection != nullptr && !direct ? selection->scratch : out;
    if (&decoded != &out)
    {
        decoded.clear();
    }
    if (isString(out.type()) && header.encoding == Encoding::kPlain)
    {
        decodePlainStrings(header, payload, decoded);
    }
    else
    {
        decodeValues(header, payload, dictionary,
                     selection != nullptr && direct ? selection->rows : std::span<const uint32_t>(),
                     decoded);
    }
    if (&decoded != &out)
    {
        gatherRows(decoded.view(), 0, selection->rows, out);
    }
    return BlockHeader::kBytes + header.stored_bytes;
}

}  // namespace granary::encoding
