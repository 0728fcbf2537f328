// RowBinary decoding against byte-level known answers (ClickHouse's documented encodings),
// the writer's own output read back, and every malformed-input error.
#include "engine/ingest/row_binary_reader.h"

#include <gtest/gtest.h>

#include <sstream>

#include "engine/formats/output_format.h"
#include "tests/ingest/ingest_test_support.h"

namespace granary::ingest
{
namespace
{

using testing::hexBytes;
using testing::schemaOf;

TableSchema everyType()
{
    return schemaOf({{"u8", TypeId::UInt8},
                     {"u16", TypeId::UInt16},
                     {"u32", TypeId::UInt32},
                     {"u64", TypeId::UInt64},
                     {"i8", TypeId::Int8},
                     {"i16", TypeId::Int16},
                     {"i32", TypeId::Int32},
                     {"i64", TypeId::Int64},
                     {"f32", TypeId::Float32},
                     {"f64", TypeId::Float64},
                     {"d", TypeId::Date},
                     {"dt", TypeId::DateTime},
                     {"s", TypeId::String}});
}

/// One row of every type: 200, 60000, 4000000000, 2^63, -1, -300, -70000, -2^40, 1.5f, -0.25,
/// 2024-01-01 (19723 days), 2024-01-01 00:00:00 (1704067200 s), "foo".
const std::string kEveryTypeRow = hexBytes(
    "c8 60ea 0028 6bee 0000000000000080 ff d4fe 90eefeff 0000000000ffffff 0000c03f "
    "000000000000d0bf 0b4d 80009265 03 666f6f");

std::vector<Block> decode(const TableSchema& schema, std::string_view bytes)
{
    BinaryCursor cursor(bytes);
    return RowBinaryReader(schema, schema.fieldColumns({})).readAll(cursor);
}

ErrorCode errorOf(const TableSchema& schema, std::string_view bytes, std::string* message = nullptr)
{
    try
    {
        decode(schema, bytes);
    }
    catch (const Exception& error)
    {
        if (message)
        {
            *message = error.what();
        }
        return error.code();
    }
    return ErrorCode::kOk;
}

TEST(RowBinaryReader, DecodesEveryTypeFromKnownBytes)
{
    const TableSchema schema = everyType();
    const std::vector<Block> blocks = decode(schema, kEveryTypeRow);
    ASSERT_EQ(blocks.size(), 1u);
    const Block& block = blocks.front();
    ASSERT_EQ(block.rows(), 1u);
    EXPECT_EQ(block.columns[0].column.valueAt<uint8_t>(0), 200);
    EXPECT_EQ(block.columns[1].column.valueAt<uint16_t>(0), 60000);
    EXPECT_EQ(block.columns[2].column.valueAt<uint32_t>(0), 4000000000u);
    EXPECT_EQ(block.columns[3].column.valueAt<uint64_t>(0), uint64_t{1} << 63);
    EXPECT_EQ(block.columns[4].column.valueAt<int8_t>(0), -1);
    EXPECT_EQ(block.columns[5].column.valueAt<int16_t>(0), -300);
    EXPECT_EQ(block.columns[6].column.valueAt<int32_t>(0), -70000);
    EXPECT_EQ(block.columns[7].column.valueAt<int64_t>(0), -(int64_t{1} << 40));
    EXPECT_EQ(block.columns[8].column.valueAt<float>(0), 1.5f);
    EXPECT_EQ(block.columns[9].column.valueAt<double>(0), -0.25);
    EXPECT_EQ(block.columns[10].column.valueAt<uint16_t>(0), 19723);
    EXPECT_EQ(block.columns[11].column.valueAt<uint32_t>(0), 1704067200u);
    EXPECT_EQ(block.columns[12].column.stringAt(0), "foo");
}

TEST(RowBinaryReader, TheWriterProducesTheKnownBytes)
{
    const std::vector<Block> blocks = decode(everyType(), kEveryTypeRow);
    std::ostringstream out;
    writeBlock(blocks.front(), OutputFormat::kRowBinary, out);
    EXPECT_EQ(out.str(), kEveryTypeRow);
}

TEST(RowBinaryReader, VarUIntLengthsOfManyBytes)
{
    const TableSchema schema = schemaOf({{"s", TypeId::String}});
    const std::string long_value(300, 'x');
    // 300 = 0b10_0101100: ac 02.
    const std::vector<Block> blocks =
        decode(schema, hexBytes("ac02") + long_value + hexBytes("00"));
    ASSERT_EQ(blocks.front().rows(), 2u);
    EXPECT_EQ(blocks.front().columns[0].column.stringAt(0), long_value);
    EXPECT_EQ(blocks.front().columns[0].column.stringAt(1), "");
}

TEST(RowBinaryReader, ListedColumnsInTheirOrderOthersDefault)
{
    const TableSchema schema =
        schemaOf({{"a", TypeId::UInt8}, {"b", TypeId::String}, {"c", TypeId::UInt16}});
    const std::string bytes = hexBytes("0102 01 78");  // c = 0x0201, b = "x"
    BinaryCursor cursor(bytes);
    const std::vector<Block> blocks =
        RowBinaryReader(schema, schema.fieldColumns({"c", "b"})).readAll(cursor);
    const Block& block = blocks.front();
    EXPECT_EQ(block.columns[0].column.valueAt<uint8_t>(0), 0);
    EXPECT_EQ(block.columns[1].column.stringAt(0), "x");
    EXPECT_EQ(block.columns[2].column.valueAt<uint16_t>(0), 0x0201);
}

TEST(RowBinaryReader, ManyRowsSplitIntoBlocks)
{
    const TableSchema schema = schemaOf({{"a", TypeId::UInt32}});
    std::string bytes;
    const size_t rows = RowBinaryReader::kBlockRows * 2 + 5;
    for (uint32_t row = 0; row < rows; ++row)
    {
        bytes.append(reinterpret_cast<const char*>(&row), 4);
    }
    const std::vector<Block> blocks = decode(schema, bytes);
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[2].rows(), 5u);
    EXPECT_EQ(blocks[2].columns[0].column.valueAt<uint32_t>(4), rows - 1);
}

TEST(RowBinaryReader, WithNamesAndTypesMatchesColumnsByName)
{
    const TableSchema schema = schemaOf({{"a", TypeId::UInt8}, {"b", TypeId::String}});
    // 2 columns: "b", "a"; types String, UInt8; one row b = "hi", a = 7.
    const std::string bytes = hexBytes("02 0162 0161 06537472696e67 0555496e7438 026869 07");
    BinaryCursor cursor(bytes);
    const std::vector<Block> blocks = RowBinaryReader::fromHeader(schema, cursor).readAll(cursor);
    EXPECT_EQ(blocks.front().columns[0].column.valueAt<uint8_t>(0), 7);
    EXPECT_EQ(blocks.front().columns[1].column.stringAt(0), "hi");

    const std::string wrong_type_bytes = hexBytes("01 0161 0655496e743136");
    BinaryCursor wrong_type(wrong_type_bytes);
    EXPECT_THROW(RowBinaryReader::fromHeader(schema, wrong_type), Exception);
    const std::string unknown_bytes = hexBytes("01 017a 0555496e7438");
    BinaryCursor unknown(unknown_bytes);
    try
    {
        RowBinaryReader::fromHeader(schema, unknown);
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kNoSuchColumnInTable);
    }
}

TEST(RowBinaryReader, ABodyEndingMidRowNamesRowColumnAndByte)
{
    const TableSchema schema = schemaOf({{"a", TypeId::UInt32}, {"b", TypeId::UInt64}});
    std::string message;
    // Row 1 whole (12 bytes), row 2 cut inside b.
    EXPECT_EQ(errorOf(schema, std::string(12, '\0') + std::string(7, '\1'), &message),
              ErrorCode::kCannotReadAllData);
    EXPECT_NE(message.find("at row 2"), std::string::npos) << message;
    EXPECT_NE(message.find("column 'b'"), std::string::npos) << message;
    EXPECT_NE(message.find("at byte 16"), std::string::npos) << message;
    // Three garbage bytes after the last row.
    EXPECT_EQ(errorOf(schema, std::string(12, '\0') + "abc"), ErrorCode::kCannotReadAllData);
}

TEST(RowBinaryReader, LengthsPastTheLimitsOrTheDataAreRefusedBeforeAllocating)
{
    const TableSchema schema = schemaOf({{"s", TypeId::String}});
    // 2^32 as a 5-byte VarUInt: above the 1 GiB string limit.
    EXPECT_EQ(errorOf(schema, hexBytes("8080808010")), ErrorCode::kTooLargeSize);
    // 1000 bytes claimed, 3 present.
    EXPECT_EQ(errorOf(schema, hexBytes("e807 616263")), ErrorCode::kCannotReadAllData);
    // 11-byte VarUInt, and a 10th byte past 64 bits.
    EXPECT_EQ(errorOf(schema, hexBytes("ffffffffffffffffffff01")), ErrorCode::kIncorrectData);
    EXPECT_EQ(errorOf(schema, hexBytes("ffffffffffffffffff02")), ErrorCode::kIncorrectData);
    // A VarUInt cut short.
    EXPECT_EQ(errorOf(schema, hexBytes("ff")), ErrorCode::kCannotReadAllData);
}

TEST(RowBinaryReader, EmptyDataIsNoRows)
{
    EXPECT_TRUE(decode(everyType(), "").empty());
}

}  // namespace
}  // namespace granary::ingest
