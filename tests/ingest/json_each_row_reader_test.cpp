// JSONEachRow decoding: values of every kind into typed columns, defaults, and errors that
// name the line and the column.
#include "engine/ingest/json_each_row_reader.h"

#include <gtest/gtest.h>

#include "engine/common/exception.h"
#include "tests/ingest/ingest_test_support.h"

namespace granary::ingest
{
namespace
{

using testing::schemaOf;

const TableSchema kSchema = schemaOf({{"id", TypeId::UInt64},
                                      {"x", TypeId::Int32},
                                      {"f", TypeId::Float64},
                                      {"d", TypeId::Date},
                                      {"s", TypeId::String}});

ErrorCode errorOf(std::string_view text, std::string* message = nullptr)
{
    try
    {
        readJsonEachRow(kSchema, kSchema.fieldColumns({}), text);
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

TEST(JsonEachRowReader, ReadsValuesOfEveryKind)
{
    const std::vector<Block> blocks =
        readJsonEachRow(kSchema, kSchema.fieldColumns({}),
                        "{\"id\":\"18446744073709551615\",\"x\":-5,\"f\":2.5,\"d\":\"2024-01-01\","
                        "\"s\":\"a\\nb\"}\n"
                        "\n"
                        "{\"s\":\"only s\",\"x\":true,\"f\":null}\r\n");
    ASSERT_EQ(blocks.size(), 1u);
    const Block& block = blocks.front();
    ASSERT_EQ(block.rows(), 2u);
    EXPECT_EQ(block.columns[0].column.valueAt<uint64_t>(0), UINT64_MAX);
    EXPECT_EQ(block.columns[1].column.valueAt<int32_t>(0), -5);
    EXPECT_EQ(block.columns[2].column.valueAt<double>(0), 2.5);
    EXPECT_EQ(block.columns[3].column.valueAt<uint16_t>(0), 19723);
    EXPECT_EQ(block.columns[4].column.stringAt(0), "a\nb");
    EXPECT_EQ(block.columns[0].column.valueAt<uint64_t>(1), 0u);
    EXPECT_EQ(block.columns[1].column.valueAt<int32_t>(1), 1);
    EXPECT_EQ(block.columns[2].column.valueAt<double>(1), 0.0);
    EXPECT_EQ(block.columns[4].column.stringAt(1), "only s");
}

TEST(JsonEachRowReader, NullAndLeftOutAreNullInNullableColumns)
{
    TableSchema schema = schemaOf({{"id", TypeId::UInt64}, {"n", TypeId::Int32}});
    schema.columns[1].type = DataType::makeNullable(TypeId::Int32);
    const std::vector<Block> blocks =
        readJsonEachRow(schema, schema.fieldColumns({}),
                        "{\"id\":1,\"n\":7}\n{\"id\":2,\"n\":null}\n{\"id\":3}\n{\"n\":null}\n");
    ASSERT_EQ(blocks.size(), 1u);
    const Column& n = blocks.front().columns[1].column;
    ASSERT_EQ(n.size(), 4u);
    EXPECT_FALSE(n.isNull(0));
    EXPECT_EQ(n.valueAt<int32_t>(0), 7);
    EXPECT_TRUE(n.isNull(1));
    EXPECT_TRUE(n.isNull(2));
    EXPECT_TRUE(n.isNull(3));
    // A column that is not Nullable takes its default for both.
    EXPECT_EQ(blocks.front().columns[0].column.valueAt<uint64_t>(3), 0u);
    EXPECT_FALSE(blocks.front().columns[0].column.hasNulls());
}

TEST(JsonEachRowReader, ErrorsNameLineAndColumn)
{
    std::string message;
    EXPECT_EQ(errorOf("{\"id\":1}\n{\"x\":4294967296}\n", &message), ErrorCode::kCannotParseInput);
    EXPECT_NE(message.find("line 2"), std::string::npos) << message;
    EXPECT_NE(message.find("column 'x'"), std::string::npos) << message;
    EXPECT_EQ(errorOf("{\"nope\":1}\n"), ErrorCode::kIncorrectData);
    EXPECT_EQ(errorOf("{\"id\":1,\"id\":2}\n"), ErrorCode::kIncorrectData);
    EXPECT_EQ(errorOf("{\"id\":[1]}\n"), ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("{\"s\":5}\n"), ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("{\"id\":1\n"), ErrorCode::kCannotParseInput);
    EXPECT_EQ(errorOf("[1,2]\n"), ErrorCode::kCannotParseInput);
    EXPECT_EQ(errorOf("{\"id\":1} {\"id\":2}\n"), ErrorCode::kCannotParseInput);
    EXPECT_EQ(errorOf("{\"id\":1} x\n"), ErrorCode::kCannotParseInput);
    EXPECT_EQ(errorOf("{\"s\":\"unterminated}\n"), ErrorCode::kCannotParseInput);
}

TEST(JsonEachRowReader, KeysOutsideTheColumnListAreErrors)
{
    EXPECT_THROW(readJsonEachRow(kSchema, kSchema.fieldColumns({"id"}), "{\"s\":\"x\"}\n"),
                 Exception);
}

}  // namespace
}  // namespace granary::ingest
