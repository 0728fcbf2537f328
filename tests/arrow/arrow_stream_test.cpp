// exportStream and readArrowStream: batches, the end of the stream, errors, and releases.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include "engine/arrow/arrow_export.h"
#include "engine/arrow/arrow_import.h"
#include "engine/common/exception.h"
#include "tests/arrow/arrow_round_trip.h"
#include "tests/arrow/arrow_test_producer.h"

namespace granary::arrow::testing
{
namespace
{

using ::testing::HasSubstr;

const std::vector<ArrowField> kFields = {
    plainField("id", TypeId::UInt32, false, ""),
    plainField("name", TypeId::String, true, "u"),
    plainField("day", TypeId::Date, true, "tdD"),
};

Block batchOfRows(uint32_t first_id, size_t rows)
{
    Block block;
    block.columns.push_back({"id", Column(TypeId::UInt32)});
    block.columns.push_back({"name", Column(TypeId::String)});
    block.columns.push_back({"day", Column(TypeId::Date)});
    for (size_t row = 0; row < rows; ++row)
    {
        block.columns[0].column.append<uint32_t>(first_id + row);
        block.columns[1].column.appendString(std::string(row % 4, 'x'));
        block.columns[2].column.append<uint16_t>(static_cast<uint16_t>(row * 3));
    }
    if (rows > 2)
    {
        block.columns[1].column.setNull(2);
        block.columns[2].column.setNull(rows - 1);
    }
    return block;
}

/// A producer of the blocks `blocks`, then of the end of the stream.
std::function<std::optional<Block>()> producerOf(std::vector<Block> blocks)
{
    auto remaining = std::make_shared<std::vector<Block>>(std::move(blocks));
    auto next = std::make_shared<size_t>(0);
    return [remaining, next]() -> std::optional<Block>
    {
        if (*next == remaining->size())
        {
            return std::nullopt;
        }
        return std::move((*remaining)[(*next)++]);
    };
}

/// Releases a stream when a test ends.
struct StreamGuard
{
    ArrowArrayStream stream{};
    ~StreamGuard()
    {
        if (stream.release != nullptr)
        {
            stream.release(&stream);
        }
    }
};

TEST(ArrowStream, ExportedBatchesReadBack)
{
    std::vector<Block> blocks;
    blocks.push_back(batchOfRows(0, 5));
    blocks.push_back(batchOfRows(100, 0));
    blocks.push_back(batchOfRows(200, 9));
    std::vector<std::vector<std::vector<std::string>>> expected;
    for (const Block& block : blocks)
    {
        expected.push_back(renderBlock(block));
    }
    StreamGuard guard;
    exportStream(kFields, producerOf(std::move(blocks)), &guard.stream);
    std::vector<std::vector<std::vector<std::string>>> read;
    readArrowStream(guard.stream,
                    [&](const std::vector<ArrowField>& fields, const ImportedBatch& batch)
                    {
                        EXPECT_EQ(fields.size(), 3u);
                        EXPECT_FALSE(fields[0].nullable);
                        EXPECT_EQ(fields[1].format, "u");
                        EXPECT_EQ(fields[2].format, "tdD");
                        read.push_back(renderBatch(batch));
                    });
    EXPECT_EQ(read, expected);
    // The end of the stream stays the end.
    ArrowArray array{};
    EXPECT_EQ(guard.stream.get_next(&guard.stream, &array), 0);
    EXPECT_EQ(array.release, nullptr);
}

/// get_next's result and last error when next_batch throws `thrown`.
template <typename Thrown>
void expectGetNextError(const Thrown& thrown, int expected_errno, const std::string& message)
{
    StreamGuard guard;
    exportStream(
        kFields, [&]() -> std::optional<Block> { throw thrown; }, &guard.stream);
    ArrowArray array{};
    EXPECT_EQ(guard.stream.get_next(&guard.stream, &array), expected_errno);
    EXPECT_EQ(array.release, nullptr);
    ASSERT_NE(guard.stream.get_last_error(&guard.stream), nullptr);
    EXPECT_THAT(guard.stream.get_last_error(&guard.stream), HasSubstr(message));
}

TEST(ArrowStream, ExceptionsBecomeErrnoAndLastError)
{
    expectGetNextError(Exception(ErrorCode::kIncorrectData, "broken source"), EINVAL,
                       "broken source");
    expectGetNextError(std::runtime_error("disk gone"), EIO, "disk gone");
    expectGetNextError(Exception(ErrorCode::kMemoryLimitExceeded, "too big"), ENOMEM, "too big");
}

TEST(ArrowStream, BatchesMustMatchTheFields)
{
    Block wrong_type = batchOfRows(0, 3);
    wrong_type.columns[0].column = Column(TypeId::UInt64);
    Block nulls_in_id = batchOfRows(0, 3);
    nulls_in_id.columns[0].column.setNull(0);
    const std::vector<std::pair<Block, std::string>> cases = {
        {std::move(wrong_type),
         "Arrow column 0 'id': a batch's column is UInt64, the stream's field UInt32"},
        {std::move(nulls_in_id),
         "Arrow column 0 'id': a batch's column has NULLs but the field is not nullable"},
        {Block{}, "Arrow batch: a batch has 0 columns, the stream's schema 3"},
    };
    for (const auto& [block, message] : cases)
    {
        StreamGuard guard;
        exportStream(kFields, producerOf({block}), &guard.stream);
        ArrowArray array{};
        EXPECT_EQ(guard.stream.get_next(&guard.stream, &array), EINVAL);
        EXPECT_THAT(guard.stream.get_last_error(&guard.stream), HasSubstr(message));
    }
}

TEST(ArrowStream, ReaderReportsTheProducersError)
{
    StreamGuard guard;
    exportStream(
        kFields, []() -> std::optional<Block> { throw std::runtime_error("disk gone"); },
        &guard.stream);
    try
    {
        readArrowStream(guard.stream, [](const auto&, const auto&) {});
        ADD_FAILURE() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kIncorrectData);
        EXPECT_THAT(error.what(), HasSubstr("Arrow stream: get_next failed with error 5"));
        EXPECT_THAT(error.what(), HasSubstr("disk gone"));
    }
}

TEST(ArrowStream, FieldsThatCannotBeExportedAreRefusedAtOnce)
{
    StreamGuard guard;
    EXPECT_THROW(
        exportStream({plainField("x", TypeId::Date, true, "i")}, producerOf({}), &guard.stream),
        Exception);
    EXPECT_EQ(guard.stream.release, nullptr);
}

/// A hand-made stream over test arrays, to watch what readArrowStream releases.
struct TestStream
{
    std::unique_ptr<TestSchema> schema;
    std::vector<std::unique_ptr<TestArray>> arrays;
    size_t next = 0;
    int schema_error = 0;
    int next_error = 0;  ///< Returned instead of the end of the stream, when not 0.
    ArrowArrayStream stream{};

    TestStream()
    {
        stream.private_data = this;
        stream.get_schema = [](ArrowArrayStream* self, ArrowSchema* out)
        {
            TestStream& test = *static_cast<TestStream*>(self->private_data);
            if (test.schema_error != 0)
            {
                return test.schema_error;
            }
            *out = test.schema->schema;
            return 0;
        };
        stream.get_next = [](ArrowArrayStream* self, ArrowArray* out)
        {
            TestStream& test = *static_cast<TestStream*>(self->private_data);
            if (test.next == test.arrays.size())
            {
                *out = ArrowArray{};
                return test.next_error;
            }
            *out = test.arrays[test.next++]->array;
            return 0;
        };
        stream.get_last_error = [](ArrowArrayStream*) { return "disk on fire"; };
        stream.release = [](ArrowArrayStream* self) { self->release = nullptr; };
    }
    TestStream(const TestStream&) = delete;
    TestStream& operator=(const TestStream&) = delete;
};

/// Fills `test` with a schema of one Int32 column and three batches of two rows.
void addThreeBatches(TestStream& test)
{
    std::vector<std::unique_ptr<TestSchema>> fields;
    fields.push_back(fieldSchema("i", "n"));
    test.schema = structSchema(std::move(fields));
    for (int batch = 0; batch < 3; ++batch)
    {
        std::vector<std::unique_ptr<TestArray>> columns;
        columns.push_back(fixedArray<int32_t>({batch, batch + 1}));
        test.arrays.push_back(structArray(std::move(columns), 2));
    }
}

TEST(ArrowStream, ReaderReleasesEveryBatchAndTheSchema)
{
    TestStream test;
    addThreeBatches(test);
    int batches = 0;
    readArrowStream(test.stream, [&](const auto&, const auto&) { ++batches; });
    EXPECT_EQ(batches, 3);
    EXPECT_EQ(test.schema->releases, 1);
    for (const auto& array : test.arrays)
    {
        EXPECT_EQ(array->releases, 1);
        EXPECT_EQ(array->children[0]->releases, 1);
    }
}

TEST(ArrowStream, ReaderReleasesTheBatchWhenTheCallbackThrows)
{
    TestStream test;
    addThreeBatches(test);
    int batches = 0;
    EXPECT_THROW(readArrowStream(test.stream,
                                 [&](const auto&, const auto&)
                                 {
                                     if (++batches == 2)
                                     {
                                         throw std::runtime_error("consumer gave up");
                                     }
                                 }),
                 std::runtime_error);
    EXPECT_EQ(test.schema->releases, 1);
    EXPECT_EQ(test.arrays[0]->releases, 1);
    EXPECT_EQ(test.arrays[1]->releases, 1);
    EXPECT_EQ(test.arrays[2]->releases, 0);  // Never fetched.
}

TEST(ArrowStream, ReaderReportsStreamErrors)
{
    TestStream failing_next;
    addThreeBatches(failing_next);
    failing_next.next_error = EIO;
    int batches = 0;
    try
    {
        readArrowStream(failing_next.stream, [&](const auto&, const auto&) { ++batches; });
        ADD_FAILURE() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_THAT(error.what(), HasSubstr("get_next failed with error 5"));
        EXPECT_THAT(error.what(), HasSubstr("disk on fire"));
    }
    EXPECT_EQ(batches, 3);
    EXPECT_EQ(failing_next.schema->releases, 1);

    TestStream failing_schema;
    addThreeBatches(failing_schema);
    failing_schema.schema_error = EINVAL;
    EXPECT_THROW(readArrowStream(failing_schema.stream, [](const auto&, const auto&) {}),
                 Exception);
    EXPECT_EQ(failing_schema.schema->releases, 0);

    failing_schema.stream.release(&failing_schema.stream);
    EXPECT_THROW(readArrowStream(failing_schema.stream, [](const auto&, const auto&) {}),
                 Exception);
}

}  // namespace
}  // namespace granary::arrow::testing
