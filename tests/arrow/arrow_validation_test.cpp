// importSchema and importBatch refuse what the C Data Interface lets a consumer check, with an
// error that names the column and the problem.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "engine/arrow/arrow_import.h"
#include "engine/common/exception.h"
#include "tests/arrow/arrow_test_producer.h"

namespace granary::arrow::testing
{
namespace
{

using ::testing::HasSubstr;

constexpr const char* kBatch = "Arrow batch: ";
constexpr const char* kId = "Arrow column 0 'id': ";
constexpr const char* kName = "Arrow column 1 'name': ";
constexpr const char* kTag = "Arrow column 2 'tag': ";
constexpr const char* kBig = "Arrow column 3 'big': ";

/// Struct rows [1, 5) of: id (l, a NULL at row 1), name (u), tag (C indices into u values),
/// big (U).
TestBatch validBatch()
{
    std::vector<TestColumn> columns;
    columns.push_back(
        {fieldSchema("l", "id"), fixedArray<int64_t>({10, 11, std::nullopt, 13, 14}, 2)});
    columns.push_back(
        {fieldSchema("u", "name"), utf8Array({"a", "bb", std::nullopt, "dddd", "e"})});
    columns.push_back({dictionarySchema("C", "u", "tag"),
                       withDictionary(fixedArray<uint8_t>({0, 1, 2, std::nullopt, 1}),
                                      utf8Array({"x", "y", "z"}))});
    columns.push_back({fieldSchema("U", "big"), largeUtf8Array({"p", "q", "r", "s", "t"}, 1)});
    return batchOf(std::move(columns), 4, 1);
}

void importWhole(const TestBatch& batch)
{
    importBatch(batch.array->array, importSchema(batch.schema->schema));
}

/// Expects `action` to throw Exception(code) whose message starts with `subject` and holds
/// `problem`.
void expectError(const std::function<void()>& action, ErrorCode code, const std::string& subject,
                 const std::string& problem)
{
    try
    {
        action();
        ADD_FAILURE() << "no error; expected " << subject << problem;
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), code) << error.what();
        EXPECT_THAT(error.what(), ::testing::StartsWith(subject));
        EXPECT_THAT(error.what(), HasSubstr(problem));
    }
}

/// Expects importing `batch` after `corrupt` to throw as expectError says.
void expectBatchError(const std::function<void(TestBatch&)>& corrupt, ErrorCode code,
                      const std::string& subject, const std::string& problem)
{
    TestBatch batch = validBatch();
    corrupt(batch);
    expectError([&] { importWhole(batch); }, code, subject, problem);
}

TestArray& child(TestBatch& batch, size_t index)
{
    return *batch.array->children[index];
}

TEST(ArrowValidation, TheValidBatchImports)
{
    EXPECT_NO_THROW(importWhole(validBatch()));
}

TEST(ArrowValidation, ColumnsNotSelectedAreNeitherReadNorChecked)
{
    TestBatch batch = validBatch();
    child(batch, 1).buffers[1] = nullptr;
    child(batch, 2).array.release = nullptr;
    const std::vector<ArrowField> fields = importSchema(batch.schema->schema);
    const ImportedBatch imported =
        importBatch(batch.array->array, fields, ColumnSelection{true, false, false, true});
    ASSERT_EQ(imported.columns.size(), 4);
    EXPECT_EQ(imported.columns[0].type, TypeId::Int64);
    EXPECT_EQ(imported.columns[0].values<int64_t>()[0], 11);
    EXPECT_EQ(imported.columns[1].type, TypeId::String);
    EXPECT_EQ(imported.columns[1].rows, 4);
    EXPECT_EQ(imported.columns[1].offsets, nullptr);
    EXPECT_EQ(imported.columns[3].stringAt(0), "q");
    // The same columns are refused once selected.
    expectError(
        [&] {
            importBatch(batch.array->array, fields, {true, true, false, true});
        },
        ErrorCode::kIncorrectData, kName, "offsets buffer (buffers[1]) is null");
    expectError(
        [&] {
            importBatch(batch.array->array, fields, {true, false});
        },
        ErrorCode::kLogicalError, "a selection of 2 columns", "schema of 4");
}

TEST(ArrowValidation, ReleasedArrays)
{
    expectBatchError([](TestBatch& batch) { batch.array->array.release = nullptr; },
                     ErrorCode::kBadArguments, kBatch, "already released");
    expectBatchError([](TestBatch& batch) { child(batch, 1).array.release = nullptr; },
                     ErrorCode::kBadArguments, kName, "already released");
    expectBatchError([](TestBatch& batch) { child(batch, 2).dictionary->array.release = nullptr; },
                     ErrorCode::kBadArguments,
                     "Arrow column 2 'tag' dictionary: ", "already released");
}

TEST(ArrowValidation, MissingBuffers)
{
    expectBatchError([](TestBatch& batch) { child(batch, 0).array.buffers = nullptr; },
                     ErrorCode::kIncorrectData, kId, "buffers pointer is null");
    expectBatchError([](TestBatch& batch) { child(batch, 0).buffers[1] = nullptr; },
                     ErrorCode::kIncorrectData, kId,
                     "values buffer (buffers[1]) is null while the column has 4 rows");
    expectBatchError([](TestBatch& batch) { child(batch, 1).buffers[1] = nullptr; },
                     ErrorCode::kIncorrectData, kName, "offsets buffer (buffers[1]) is null");
    expectBatchError([](TestBatch& batch) { child(batch, 3).buffers[2] = nullptr; },
                     ErrorCode::kIncorrectData, kBig,
                     "chars buffer (buffers[2]) is null while the strings hold 4 bytes");
    expectBatchError([](TestBatch& batch) { child(batch, 0).buffers[0] = nullptr; },
                     ErrorCode::kIncorrectData, kId,
                     "validity buffer (buffers[0]) is null while null_count is 1");
    expectBatchError(
        [](TestBatch& batch)
        {
            batch.array->array.null_count = 2;
            batch.array->buffers[0] = nullptr;
        },
        ErrorCode::kIncorrectData, kBatch, "validity buffer (buffers[0]) is null");
}

TEST(ArrowValidation, BufferAndChildCounts)
{
    expectBatchError([](TestBatch& batch) { child(batch, 0).array.n_buffers = 3; },
                     ErrorCode::kIncorrectData, kId, "n_buffers is 3, expected 2 for format 'l'");
    expectBatchError([](TestBatch& batch) { child(batch, 1).array.n_buffers = 2; },
                     ErrorCode::kIncorrectData, kName, "n_buffers is 2, expected 3 for format 'u'");
    expectBatchError([](TestBatch& batch) { batch.array->array.n_buffers = 2; },
                     ErrorCode::kIncorrectData, kBatch, "n_buffers is 2, expected 1");
    expectBatchError([](TestBatch& batch) { batch.array->array.n_children = 3; },
                     ErrorCode::kIncorrectData, kBatch, "n_children is 3, expected 4");
    expectBatchError([](TestBatch& batch) { child(batch, 0).array.n_children = 1; },
                     ErrorCode::kIncorrectData, kId, "n_children is 1, expected 0");
    expectBatchError([](TestBatch& batch) { batch.array->child_pointers[2] = nullptr; },
                     ErrorCode::kIncorrectData, kTag, "child array (children[2]) is null");
}

TEST(ArrowValidation, NegativeCounts)
{
    expectBatchError([](TestBatch& batch) { child(batch, 0).array.length = -1; },
                     ErrorCode::kIncorrectData, kId, "length -1 and offset 2 must not be negative");
    expectBatchError([](TestBatch& batch) { child(batch, 1).array.offset = -3; },
                     ErrorCode::kIncorrectData, kName, "offset -3 must not be negative");
    expectBatchError([](TestBatch& batch) { batch.array->array.length = -4; },
                     ErrorCode::kIncorrectData, kBatch, "length -4");
    expectBatchError([](TestBatch& batch) { child(batch, 3).array.null_count = -2; },
                     ErrorCode::kIncorrectData, kBig, "null_count is -2");
}

TEST(ArrowValidation, ChildShorterThanTheStructRows)
{
    expectBatchError([](TestBatch& batch) { child(batch, 1).array.length = 4; },
                     ErrorCode::kIncorrectData, kName,
                     "length 4 is shorter than the batch's offset plus length (5)");
    expectBatchError([](TestBatch& batch) { batch.array->array.offset = 2; },
                     ErrorCode::kIncorrectData, kId, "is shorter than the batch's offset");
}

TEST(ArrowValidation, StringOffsets)
{
    // name's rows are elements 1 to 4: offsets 1 to 5 are checked.
    expectBatchError([](TestBatch& batch) { child(batch, 1).bufferAs<int32_t>(1)[2] = -5; },
                     ErrorCode::kIncorrectData, kName, "string offset 1 is negative (-5)");
    expectBatchError([](TestBatch& batch) { child(batch, 1).bufferAs<int32_t>(1)[3] = 0; },
                     ErrorCode::kIncorrectData, kName,
                     "string offsets run backwards at row 1 (3 to 0)");
    expectBatchError([](TestBatch& batch) { child(batch, 3).bufferAs<int64_t>(1)[6] = 1; },
                     ErrorCode::kIncorrectData, kBig, "string offsets run backwards at row 3");
    // Offsets before the rows used are not read.
    TestBatch batch = validBatch();
    child(batch, 1).bufferAs<int32_t>(1)[0] = -100;
    EXPECT_NO_THROW(importWhole(batch));
}

TEST(ArrowValidation, DictionaryIndices)
{
    // tag's rows are elements 1 to 4 of its indices; element 3 is NULL.
    expectBatchError([](TestBatch& batch) { child(batch, 2).bufferAs<uint8_t>(1)[2] = 200; },
                     ErrorCode::kIncorrectData, kTag,
                     "dictionary index 200 at row 1 is outside the dictionary's 3 values");
    expectBatchError([](TestBatch& batch) { child(batch, 2).array.dictionary = nullptr; },
                     ErrorCode::kIncorrectData, kTag, "the array's dictionary is null");
    expectBatchError([](TestBatch& batch) { child(batch, 2).dictionary->array.n_buffers = 2; },
                     ErrorCode::kIncorrectData, "Arrow column 2 'tag' dictionary: ",
                     "n_buffers is 2, expected 3 for format 'u'");
    TestBatch batch = validBatch();
    child(batch, 2).bufferAs<uint8_t>(1)[3] = 200;  // A NULL row's index is not read.
    EXPECT_NO_THROW(importWhole(batch));
}

TEST(ArrowValidation, UnsupportedFormatsNameTheFieldAndTheFormat)
{
    for (const char* format : {"vu", "d:38,0", "+l", "+s", "w:16", "tdx", "tsx:", "ts", "", "n"})
    {
        SCOPED_TRACE(format);
        TestBatch batch = validBatch();
        batch.schema->children[1]->setFormat(format);
        expectError([&] { importSchema(batch.schema->schema); }, ErrorCode::kUnknownType, kName,
                    "Arrow format '" + std::string(format) + "' is not supported");
    }
    TestBatch batch = validBatch();
    batch.schema->children[2]->setFormat("f");
    expectError([&] { importSchema(batch.schema->schema); }, ErrorCode::kUnknownType, kTag,
                "dictionary index format 'f' is not an integer format");
    batch.schema->children[2]->setFormat("C");
    batch.schema->children[2]->dictionary->setFormat("vu");
    expectError([&] { importSchema(batch.schema->schema); }, ErrorCode::kUnknownType, kTag,
                "Arrow format 'vu' is not supported");
}

TEST(ArrowValidation, Schemas)
{
    TestBatch batch = validBatch();
    batch.schema->schema.release = nullptr;
    expectError([&] { importSchema(batch.schema->schema); }, ErrorCode::kBadArguments, kBatch,
                "schema is already released");
    batch = validBatch();
    batch.schema->children[0]->schema.format = nullptr;
    expectError([&] { importSchema(batch.schema->schema); }, ErrorCode::kIncorrectData, kId,
                "format is null");
    batch = validBatch();
    batch.schema->children[3]->schema.n_children = 2;
    expectError([&] { importSchema(batch.schema->schema); }, ErrorCode::kIncorrectData, kBig,
                "n_children is 2 for format 'U'");
}

}  // namespace
}  // namespace granary::arrow::testing
