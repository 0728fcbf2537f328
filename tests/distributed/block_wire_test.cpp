// Blocks on the wire (block_wire.h): every type, NULLs, empty blocks and long strings come
// back as they were sent; a truncated or damaged message is an Exception(kIncorrectData)
// naming where it came from, never a crash; serializedRowBytes accounts for a message's size.

#include "engine/distributed/block_wire.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/common/exception.h"
#include "tests/distributed/block_difference.h"

namespace granary::distributed
{
namespace
{

using test::blockDifference;

const std::vector<TypeId> kAllTypes = {
    TypeId::UInt8, TypeId::UInt16,   TypeId::UInt32, TypeId::UInt64,  TypeId::Int8,
    TypeId::Int16, TypeId::Int32,    TypeId::Int64,  TypeId::Float32, TypeId::Float64,
    TypeId::Date,  TypeId::DateTime, TypeId::String};

constexpr const char* kOrigin = "the states from rank 3";

/// The extremes of T, then random values; floats with NaN, both infinities, -0 and the
/// smallest denormal among them.
template <typename T>
std::vector<T> valuesOf(size_t rows, std::mt19937_64& random)
{
    std::vector<T> special = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(),
                              T{0}};
    if constexpr (std::is_floating_point_v<T>)
    {
        special.insert(
            special.end(),
            {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
             -std::numeric_limits<T>::infinity(), T(-0.0), std::numeric_limits<T>::denorm_min()});
    }
    std::vector<T> values;
    for (size_t row = 0; row < rows; ++row)
    {
        if (row < special.size())
        {
            values.push_back(special[row]);
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            values.push_back(static_cast<T>(std::normal_distribution<double>(0, 1e6)(random)));
        }
        else
        {
            values.push_back(static_cast<T>(random()));
        }
    }
    return values;
}

Column columnOf(TypeId type, size_t rows, std::mt19937_64& random)
{
    Column column(type);
    if (isString(type))
    {
        const std::string pieces[] = {"", "a", std::string("nul\0byte", 8), "é", ""};
        for (size_t row = 0; row < rows; ++row)
        {
            column.appendString(row < std::size(pieces)
                                    ? pieces[row]
                                    : std::string(random() % 64, static_cast<char>(random())));
        }
        return column;
    }
    dispatchFixedType(type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          for (const T value : valuesOf<T>(rows, random))
                          {
                              column.append(value);
                          }
                      });
    return column;
}

/// One column of every type, `rows` rows; with `nulls`, every column has NULLs at both ends
/// and around a bitmap byte's boundary.
Block allTypesBlock(size_t rows, bool nulls, uint64_t seed = 1)
{
    std::mt19937_64 random(seed);
    Block block;
    for (const TypeId type : kAllTypes)
    {
        Column column = columnOf(type, rows, random);
        for (const size_t row : {size_t{0}, size_t{7}, size_t{8}, rows - 1})
        {
            if (nulls && row < rows)
            {
                column.setNull(row);
            }
        }
        block.columns.push_back({"c_" + std::string(typeName(type)), std::move(column)});
    }
    return block;
}

Block roundTrip(const Block& block)
{
    return deserializeBlock(serializeBlock(block), kOrigin);
}

/// Whether deserializing `bytes` fails as a damaged message should: kIncorrectData naming
/// kOrigin. Anything else (a block, another error) is described in the returned failure.
::testing::AssertionResult rejected(std::string_view bytes)
{
    try
    {
        const Block block = deserializeBlock(bytes, kOrigin);
        return ::testing::AssertionFailure()
               << "decoded to a block of " << block.columns.size() << " columns";
    }
    catch (const Exception& e)
    {
        if (e.code() != ErrorCode::kIncorrectData)
        {
            return ::testing::AssertionFailure()
                   << "code " << static_cast<int>(e.code()) << ": " << e.what();
        }
        if (std::string(e.what()).find(kOrigin) == std::string::npos)
        {
            return ::testing::AssertionFailure()
                   << "the message does not name the origin: " << e.what();
        }
        return ::testing::AssertionSuccess();
    }
}

TEST(BlockWire, RoundTripsEveryType)
{
    const Block block = allTypesBlock(1000, false);
    EXPECT_EQ(blockDifference(block, roundTrip(block)), "");
}

TEST(BlockWire, RoundTripsNulls)
{
    for (const size_t rows : {1, 8, 9, 17, 1000})
    {
        SCOPED_TRACE(rows);
        Block block = allTypesBlock(rows, true);
        // A column of NULLs only, and one without any next to them.
        Column all_null(TypeId::String);
        Column none_null(TypeId::Int32);
        for (size_t row = 0; row < rows; ++row)
        {
            all_null.appendString("hidden");
            all_null.setNull(row);
            none_null.append(static_cast<int32_t>(row));
        }
        block.columns.push_back({"all_null", std::move(all_null)});
        block.columns.push_back({"none_null", std::move(none_null)});
        const Block decoded = roundTrip(block);
        EXPECT_EQ(blockDifference(block, decoded), "");
        EXPECT_TRUE(decoded.find("c_Float64")->isNull(0));
        EXPECT_FALSE(decoded.find("none_null")->hasNulls());
    }
}

TEST(BlockWire, RoundTripsLongAndEmptyStrings)
{
    Block block;
    Column strings(TypeId::String);
    strings.appendString("");
    std::string megabyte(1 << 20, '\0');
    for (size_t i = 0; i < megabyte.size(); ++i)
    {
        megabyte[i] = static_cast<char>(i * 131 + 7);
    }
    strings.appendString(megabyte);
    strings.appendString("");
    strings.appendString("after");
    block.columns.push_back({"s", std::move(strings)});
    const Block decoded = roundTrip(block);
    EXPECT_EQ(blockDifference(block, decoded), "");
    EXPECT_EQ(decoded.columns[0].column.stringAt(1), megabyte);
}

TEST(BlockWire, RoundTripsEmptyBlocks)
{
    const Block no_rows = allTypesBlock(0, false);
    const Block decoded = roundTrip(no_rows);
    EXPECT_EQ(blockDifference(no_rows, decoded), "");
    EXPECT_EQ(decoded.columns.size(), kAllTypes.size());

    const Block no_columns;
    EXPECT_TRUE(roundTrip(no_columns).columns.empty());
}

TEST(BlockWire, EveryTruncationIsIncorrectData)
{
    for (const Block& block : {allTypesBlock(20, true), allTypesBlock(0, false), Block{}})
    {
        const std::string bytes = serializeBlock(block);
        for (size_t length = 0; length < bytes.size(); ++length)
        {
            EXPECT_TRUE(rejected(std::string_view(bytes).substr(0, length)))
                << "truncated to " << length << " of " << bytes.size() << " bytes";
        }
        EXPECT_TRUE(rejected(bytes + '\0')) << "a byte left over";
    }
}

TEST(BlockWire, TruncatedLongStringIsIncorrectData)
{
    Block block;
    Column strings(TypeId::String);
    strings.appendString(std::string(1 << 20, 'x'));
    strings.appendString("");
    block.columns.push_back({"s", std::move(strings)});
    const std::string bytes = serializeBlock(block);
    // Every cut in the header and lengths, then a sample across the megabyte of characters.
    for (size_t length = 0; length < bytes.size(); length += length < 64 ? 1 : 4093)
    {
        EXPECT_TRUE(rejected(std::string_view(bytes).substr(0, length))) << length;
    }
    EXPECT_TRUE(rejected(std::string_view(bytes).substr(0, bytes.size() - 1)));
}

/// The block header: magic number, column count, row count.
constexpr size_t kHeaderBytes = 16;

TEST(BlockWire, HeaderCorruptionIsIncorrectData)
{
    Block one_string;
    Column strings(TypeId::String);
    for (const char* value : {"ab", "", "cdefgh"})
    {
        strings.appendString(value);
    }
    one_string.columns.push_back({"s", std::move(strings)});
    for (const Block& block : {allTypesBlock(20, true), allTypesBlock(0, false), one_string})
    {
        const std::string bytes = serializeBlock(block);
        for (size_t position = 0; position < kHeaderBytes; ++position)
        {
            for (int value = 0; value < 256; ++value)
            {
                std::string damaged = bytes;
                if (static_cast<uint8_t>(damaged[position]) == value)
                {
                    continue;
                }
                damaged[position] = static_cast<char>(value);
                EXPECT_TRUE(rejected(damaged)) << "byte " << position << " set to " << value;
            }
        }
    }
}

TEST(BlockWire, HeaderCorruptionOfABlockWithoutColumns)
{
    const std::string bytes = serializeBlock(Block{});
    ASSERT_EQ(bytes.size(), kHeaderBytes);
    for (size_t position = 0; position < kHeaderBytes; ++position)
    {
        std::string damaged = bytes;
        damaged[position] = static_cast<char>(damaged[position] ^ 0x5A);
        // Without columns a block has no rows whatever its row count says: that damage still
        // decodes to the block that was sent.
        if (position >= 8)
        {
            EXPECT_TRUE(deserializeBlock(damaged, kOrigin).columns.empty());
        }
        else
        {
            EXPECT_TRUE(rejected(damaged)) << "byte " << position;
        }
    }
}

TEST(BlockWire, UnknownTypeCodeIsIncorrectData)
{
    Block block;
    block.columns.push_back({"x", Column(TypeId::Int64)});
    block.columns[0].column.append(int64_t{42});
    std::string bytes = serializeBlock(block);
    // After the header, the column's name length (4 bytes) and name ("x").
    const size_t type_position = kHeaderBytes + 4 + 1;
    ASSERT_EQ(static_cast<uint8_t>(bytes[type_position]), static_cast<uint8_t>(TypeId::Int64));
    bytes[type_position] = static_cast<char>(static_cast<uint8_t>(TypeId::String) + 1);
    try
    {
        deserializeBlock(bytes, kOrigin);
        FAIL() << "an unknown type code decoded";
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), ErrorCode::kIncorrectData);
        EXPECT_NE(std::string(e.what()).find("unknown type code"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(kOrigin), std::string::npos) << e.what();
    }
}

TEST(BlockWire, AnyByteCorruptionDecodesOrIsIncorrectData)
{
    // Damage past the header may still decode (a value or a name changed): a different
    // block is fine there, a crash or another error is not.
    const std::string bytes = serializeBlock(allTypesBlock(20, true));
    size_t rejections = 0;
    for (size_t position = 0; position < bytes.size(); ++position)
    {
        for (const uint8_t mask : {0x01, 0x80, 0xFF})
        {
            std::string damaged = bytes;
            damaged[position] = static_cast<char>(damaged[position] ^ mask);
            try
            {
                deserializeBlock(damaged, kOrigin);
            }
            catch (const Exception& e)
            {
                ASSERT_EQ(e.code(), ErrorCode::kIncorrectData) << e.what();
                ++rejections;
            }
        }
    }
    EXPECT_GT(rejections, kHeaderBytes * 3);
}

TEST(BlockWire, OtherBytesAreIncorrectData)
{
    EXPECT_TRUE(rejected(""));
    EXPECT_TRUE(rejected("not a block at all"));
    std::mt19937_64 random(7);
    for (int attempt = 0; attempt < 100; ++attempt)
    {
        std::string noise(random() % 100, '\0');
        for (char& byte : noise)
        {
            byte = static_cast<char>(random());
        }
        EXPECT_TRUE(rejected(noise));
    }
}

/// Bytes of `block`'s message beyond the sum of its rows' serializedRowBytes.
size_t overheadOf(const Block& block)
{
    size_t row_bytes = 0;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        row_bytes += serializedRowBytes(block, row);
    }
    const size_t size = serializeBlock(block).size();
    EXPECT_LE(row_bytes, size);
    return size - row_bytes;
}

TEST(BlockWire, RowBytesAndAFixedOverheadMakeTheMessage)
{
    // Without NULLs the overhead is the same whatever the rows: the header and each column's
    // name, type and flag. What a message is cut by then predicts its size.
    const size_t overhead = overheadOf(allTypesBlock(0, false));
    EXPECT_GT(overhead, 0u);
    for (const size_t rows : {1, 10, 1000})
    {
        for (const uint64_t seed : {1, 2})
        {
            EXPECT_EQ(overheadOf(allTypesBlock(rows, false, seed)), overhead) << rows;
        }
    }
    // NULL bitmaps are not counted per row; the rows still fit the message.
    EXPECT_GT(overheadOf(allTypesBlock(1000, true)), overhead);

    Block strings;
    strings.columns.push_back({"s", Column(TypeId::String)});
    strings.columns[0].column.appendString("");
    strings.columns[0].column.appendString(std::string(1000, 'z'));
    EXPECT_LT(serializedRowBytes(strings, 0), serializedRowBytes(strings, 1));
    EXPECT_EQ(serializedRowBytes(strings, 1) - serializedRowBytes(strings, 0), 1000u);
}

}  // namespace
}  // namespace granary::distributed
