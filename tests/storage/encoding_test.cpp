#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "engine/storage/encoding/column_block.h"
#include "engine/storage/encoding/packed_ints.h"
#include "tests/formats/test_blocks.h"

namespace granary::encoding
{
namespace
{

/// The view's values, compared as bits (so NaN equals itself) or as strings.
std::vector<std::string> valuesOf(const ColumnView& view)
{
    std::vector<std::string> values;
    for (size_t row = 0; row < view.rows; ++row)
    {
        if (isString(view.type))
        {
            values.emplace_back(view.stringAt(row));
        }
        else
        {
            const size_t width = fixedWidth(view.type);
            values.emplace_back(static_cast<const char*>(view.data) + row * width, width);
        }
    }
    return values;
}

/// Encodes `column` in blocks of up to 8192 rows (with a dictionary for strings) and decodes
/// them all; returns the encodings used.
std::vector<Encoding> expectRoundTrip(const Column& column, const CodecChoice& codec = {})
{
    constexpr size_t kBlockRows = 8192;
    StringDictionaryBuilder dictionary;
    EncodeScratch scratch;
    std::string bytes;
    std::vector<size_t> block_rows;
    for (size_t begin = 0; begin < column.size(); begin += kBlockRows)
    {
        block_rows.push_back(std::min(kBlockRows, column.size() - begin));
        encodeBlock(column.view().slice(begin, block_rows.back()), codec, &dictionary, scratch,
                    bytes);
    }
    Column decoded(column.type());
    Column selected(column.type());
    Column decode_scratch(column.type());
    std::vector<uint32_t> selected_rows;  // Of the whole column: every third row of each block.
    std::vector<Encoding> encodings;
    size_t position = 0;
    for (size_t block_index = 0; block_index < block_rows.size(); ++block_index)
    {
        const size_t rows = block_rows[block_index];
        const std::string_view block = std::string_view(bytes).substr(position);
        encodings.push_back(readBlockHeader(block).encoding);
        std::vector<uint32_t> selection;
        for (uint32_t row = block_index % 3; row < rows; row += 3)
        {
            selection.push_back(row);
            selected_rows.push_back(uint32_t(block_index * kBlockRows + row));
        }
        const BlockSelection rows_to_read{selection, decode_scratch};
        decodeBlock(block, rows, dictionary.values().view(), selected, &rows_to_read);
        position += decodeBlock(block, rows, dictionary.values().view(), decoded);
    }
    EXPECT_EQ(position, bytes.size());
    EXPECT_EQ(valuesOf(decoded.view()), valuesOf(column.view()));
    Column expected_selection(column.type());
    gatherRows(column.view(), 0, selected_rows, expected_selection);
    EXPECT_EQ(valuesOf(selected.view()), valuesOf(expected_selection.view()));
    return encodings;
}

using test::fixedColumn;
using test::stringColumn;

/// Edge values, all-equal, all-distinct, sorted, random and 1-row columns of T.
template <typename T>
void expectEveryShapeRoundTrips(TypeId type)
{
    std::mt19937_64 random(42);
    const T lowest = std::numeric_limits<T>::lowest();
    const T highest = std::numeric_limits<T>::max();
    std::vector<std::vector<T>> shapes = {
        {T(7)},
        std::vector<T>(8193, T(3)),
        std::vector<T>(100, lowest),
    };
    std::vector<T> edges, sorted, random_values, small_range, distinct;
    for (size_t row = 0; row < 20000; ++row)
    {
        edges.push_back(row % 3 == 0 ? lowest : row % 3 == 1 ? highest : T(0));
        sorted.push_back(T(row / 3));
        random_values.push_back(T(random()));
        small_range.push_back(T(T(100) + T(random() % 20)));
        distinct.push_back(T(row));
    }
    if constexpr (std::is_floating_point_v<T>)
    {
        edges[5] = std::numeric_limits<T>::quiet_NaN();
        edges[6] = -T(0);
        edges[7] = std::numeric_limits<T>::infinity();
    }
    for (auto* shape : {&edges, &sorted, &random_values, &small_range, &distinct})
    {
        shapes.push_back(*shape);
    }
    for (const std::vector<T>& values : shapes)
    {
        expectRoundTrip(fixedColumn(type, values));
        expectRoundTrip(fixedColumn(type, values), CodecChoice{Codec::kZSTD, 3});
        expectRoundTrip(fixedColumn(type, values), CodecChoice{Codec::kNone, 0});
    }
}

TEST(ColumnBlock, EveryFixedTypeRoundTripsInEveryShape)
{
    expectEveryShapeRoundTrips<uint8_t>(TypeId::UInt8);
    expectEveryShapeRoundTrips<uint16_t>(TypeId::UInt16);
    expectEveryShapeRoundTrips<uint32_t>(TypeId::UInt32);
    expectEveryShapeRoundTrips<uint64_t>(TypeId::UInt64);
    expectEveryShapeRoundTrips<int8_t>(TypeId::Int8);
    expectEveryShapeRoundTrips<int16_t>(TypeId::Int16);
    expectEveryShapeRoundTrips<int32_t>(TypeId::Int32);
    expectEveryShapeRoundTrips<int64_t>(TypeId::Int64);
    expectEveryShapeRoundTrips<float>(TypeId::Float32);
    expectEveryShapeRoundTrips<double>(TypeId::Float64);
    expectEveryShapeRoundTrips<uint16_t>(TypeId::Date);
    expectEveryShapeRoundTrips<uint32_t>(TypeId::DateTime);
}

TEST(ColumnBlock, IntegersTakeTheEncodingTheirShapeCallsFor)
{
    std::vector<uint32_t> constant(8192, 5), sorted, narrow;
    std::mt19937 random(1);
    for (uint32_t row = 0; row < 8192; ++row)
    {
        sorted.push_back(1'700'000'000 + row * 3 + random() % 3);
        narrow.push_back(1'000'000 + random() % 1000);
    }
    EXPECT_EQ(expectRoundTrip(fixedColumn(TypeId::UInt32, constant))[0], Encoding::kConstant);
    EXPECT_EQ(expectRoundTrip(fixedColumn(TypeId::UInt32, sorted))[0], Encoding::kDelta);
    EXPECT_EQ(expectRoundTrip(fixedColumn(TypeId::UInt32, narrow))[0], Encoding::kFrameOfReference);
    std::vector<int64_t> negative;
    for (int64_t row = 0; row < 8192; ++row)
    {
        negative.push_back(-5 + int64_t(random() % 11));
    }
    EXPECT_EQ(expectRoundTrip(fixedColumn(TypeId::Int64, negative))[0],
              Encoding::kFrameOfReference);
}

TEST(ColumnBlock, StringsRoundTripInEveryShape)
{
    std::mt19937_64 random(7);
    std::vector<std::string> empty(8193, ""), one{"x"}, repeated, distinct, mixed;
    const std::string pieces[] = {
        "", "a", "tab\there", std::string("nul\0byte", 8), "é", "long " + std::string(300, 'z')};
    for (size_t row = 0; row < 20000; ++row)
    {
        repeated.push_back(pieces[random() % std::size(pieces)]);
        distinct.push_back("value-" + std::to_string(random()));
        mixed.push_back(row % 2 == 0 ? pieces[row % 3] : "v" + std::to_string(row));
    }
    EXPECT_EQ(expectRoundTrip(stringColumn(empty))[0], Encoding::kConstant);
    expectRoundTrip(stringColumn(one));
    EXPECT_EQ(expectRoundTrip(stringColumn(repeated))[0], Encoding::kDictionary);
    EXPECT_EQ(expectRoundTrip(stringColumn(distinct))[0], Encoding::kPlain);
    expectRoundTrip(stringColumn(mixed));
    expectRoundTrip(stringColumn(repeated), CodecChoice{Codec::kZSTD, 1});
    expectRoundTrip(stringColumn(distinct), CodecChoice{Codec::kNone, 0});
}

TEST(ColumnBlock, CodecIsKeptOnlyWhereItPays)
{
    std::vector<std::string> random_strings;
    std::mt19937_64 random(3);
    for (size_t row = 0; row < 8192; ++row)
    {
        std::string value(16, ' ');
        for (char& c : value)
        {
            c = char(random());
        }
        random_strings.push_back(value);
    }
    StringDictionaryBuilder dictionary;
    EncodeScratch scratch;
    std::string bytes;
    encodeBlock(stringColumn(random_strings).view(), {}, &dictionary, scratch, bytes);
    EXPECT_EQ(readBlockHeader(bytes).codec, Codec::kNone);
    std::vector<std::string> urls;
    for (size_t row = 0; row < 8192; ++row)
    {
        urls.push_back("http://example.com/path/to/page?id=" + std::to_string(row % 700));
    }
    bytes.clear();
    StringDictionaryBuilder no_dictionary_room;
    encodeBlock(stringColumn(urls).view(), {}, nullptr, scratch, bytes);
    EXPECT_EQ(readBlockHeader(bytes).codec, Codec::kLZ4);
    EXPECT_LT(bytes.size(), 8192u * 40 / 4);
}

/// `distinct` strings of 60 random bytes, once each, among 8192 rows otherwise empty: each new
/// string costs the dictionary more than storing it plain once.
Column rareStrings(size_t distinct, uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::vector<std::string> strings(8192);
    for (size_t i = 0; i < distinct; ++i)
    {
        std::string& value = strings[i * 8192 / distinct];
        value.resize(60);
        for (char& c : value)
        {
            c = char('a' + random() % 26);
        }
    }
    return stringColumn(strings);
}

TEST(ColumnBlock, ABlockAddingFewStringsIsCodedEvenWhereItsOwnBytesWouldNotPay)
{
    // At most a quarter of the rows new: coded (later blocks reuse the entries); more: the
    // block's own bytes decide, and plain strings are cheaper here.
    for (const auto& [distinct, coded] : {std::pair{size_t(1800), true}, {size_t(2500), false}})
    {
        SCOPED_TRACE(std::to_string(distinct) + " new strings");
        const Column column = rareStrings(distinct, distinct);
        StringDictionaryBuilder dictionary;
        EncodeScratch scratch;
        std::string block;
        encodeBlock(column.view(), {Codec::kNone, 0}, &dictionary, scratch, block);
        EXPECT_EQ(readBlockHeader(block).encoding == Encoding::kDictionary, coded);
        EXPECT_EQ(dictionary.size(), coded ? distinct + 1 : 0);
        Column decoded(TypeId::String);
        decodeBlock(block, 8192, dictionary.values().view(), decoded);
        EXPECT_EQ(valuesOf(decoded.view()), valuesOf(column.view()));
    }
}

TEST(ColumnBlock, DictionaryCodesFramedPastTheDictionaryAreRefused)
{
    std::vector<std::string> strings;
    for (size_t row = 0; row < 8192; ++row)
    {
        strings.push_back("s" + std::to_string(row % 40));
    }
    StringDictionaryBuilder dictionary;
    EncodeScratch scratch;
    std::string block;
    encodeBlock(stringColumn(strings).view(), {Codec::kNone, 0}, &dictionary, scratch, block);
    ASSERT_EQ(readBlockHeader(block).encoding, Encoding::kDictionary);
    ASSERT_EQ(dictionary.size(), 40u);
    // The codes' frame: base (8 bytes) and width right after the header. A base at the
    // dictionary's size, or a width that could reach past it, would name no entry (or wrap
    // in 32 bits): refused before any code is read.
    for (const auto& [base, width] : {std::pair{uint64_t(40), uint8_t(0)},
                                      {uint64_t(1) << 32, uint8_t(0)},
                                      {uint64_t(0), uint8_t(40)}})
    {
        std::string damaged = block;
        std::memcpy(damaged.data() + BlockHeader::kBytes, &base, sizeof(base));
        damaged[BlockHeader::kBytes + sizeof(base)] = char(width);
        Column out(TypeId::String);
        try
        {
            decodeBlock(damaged, 8192, dictionary.values().view(), out);
            ADD_FAILURE() << "base " << base << " width " << int(width) << " decoded";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kCorruptedData);
            EXPECT_NE(std::string(error.what()).find("dictionary codes framed"), std::string::npos)
                << error.what();
        }
        std::vector<uint32_t> codes(8192);
        EXPECT_THROW(decodeDictionaryCodes(damaged, 8192, dictionary.size(), codes.data()),
                     Exception);
    }
}

TEST(PackedInts, EveryWidthRoundTrips)
{
    std::mt19937_64 random(11);
    for (unsigned width = 0; width <= PackedInts::kMaxWidth; ++width)
    {
        for (const size_t count : {size_t(1), size_t(7), size_t(8), size_t(9), size_t(1000)})
        {
            std::vector<uint64_t> values(count);
            const uint64_t mask = width == 0 ? 0 : (uint64_t(1) << width) - 1;
            for (uint64_t& value : values)
            {
                value = 12345 + (random() & mask);
            }
            const PackedInts frame = PackedInts::frameOf(values, false);
            ASSERT_LE(frame.width, width);
            std::string bytes;
            frame.pack(values, bytes);
            std::vector<uint64_t> out(count);
            EXPECT_EQ(unpackInts(bytes.data(), bytes.size(), count, out.data()), bytes.size());
            EXPECT_EQ(out, values) << "width " << width << ", " << count << " values";
        }
    }
}

/// Damaged blocks (random bytes flipped, truncated) never crash the decoder: they decode to
/// some rows or fail with kCorruptedData / kUnknownCompressionMethod.
TEST(ColumnBlock, DamagedBlocksFailCleanly)
{
    std::mt19937_64 random(5);
    std::vector<std::string> strings;
    std::vector<int32_t> numbers;
    for (size_t row = 0; row < 8192; ++row)
    {
        strings.push_back(row % 3 == 0 ? "" : "s" + std::to_string(random() % 50));
        numbers.push_back(int32_t(row * 7 + random() % 5));
    }
    for (const Column& column : {stringColumn(strings), fixedColumn(TypeId::Int32, numbers),
                                 stringColumn(std::vector<std::string>(8192, "same"))})
    {
        for (const Codec codec : {Codec::kNone, Codec::kLZ4, Codec::kZSTD})
        {
            StringDictionaryBuilder dictionary;
            EncodeScratch scratch;
            std::string block;
            encodeBlock(column.view(), {codec, 1}, &dictionary, scratch, block);
            for (int trial = 0; trial < 300; ++trial)
            {
                std::string damaged = block;
                if (trial % 4 == 0)
                {
                    damaged.resize(random() % damaged.size());
                }
                else
                {
                    for (int flip = 0; flip < 1 + trial % 3; ++flip)
                    {
                        damaged[random() % damaged.size()] ^= char(1 + random() % 255);
                    }
                }
                Column out(column.type());
                try
                {
                    decodeBlock(damaged, 8192, dictionary.values().view(), out);
                }
                catch (const Exception& error)
                {
                    EXPECT_TRUE(error.code() == ErrorCode::kCorruptedData ||
                                error.code() == ErrorCode::kUnknownCompressionMethod)
                        << error.what();
                }
            }
        }
    }
}

TEST(CodecChoice, ParsesWhatCreateTableSpells)
{
    EXPECT_EQ(CodecChoice::parse("lz4"), (CodecChoice{Codec::kLZ4, 0}));
    EXPECT_EQ(CodecChoice::parse("ZSTD"), (CodecChoice{Codec::kZSTD, 1}));
    EXPECT_EQ(CodecChoice::parse("ZSTD(7)"), (CodecChoice{Codec::kZSTD, 7}));
    EXPECT_EQ(CodecChoice::parse("None"), (CodecChoice{Codec::kNone, 0}));
    EXPECT_EQ(CodecChoice::parse("ZSTD(7)").toString(), "ZSTD(7)");
    for (const char* wrong : {"GZIP", "ZSTD(0)", "ZSTD(99)", "ZSTD(x)", "Delta"})
    {
        EXPECT_THROW(CodecChoice::parse(wrong), Exception) << wrong;
    }
}

}  // namespace
}  // namespace granary::encoding
