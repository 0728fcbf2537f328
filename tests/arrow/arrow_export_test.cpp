// exportBlock and exportSchema: formats, zero copy, conversions, errors, and who releases what.

#include "engine/arrow/arrow_export.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/common/exception.h"
#include "tests/arrow/arrow_round_trip.h"
#include "tests/arrow/column_rendering.h"

namespace granary::arrow::testing
{
namespace
{

using ::testing::HasSubstr;

template <typename T>
Column fixedColumn(TypeId type, std::initializer_list<T> values)
{
    Column column(type);
    column.resizeFixed(values.size());
    std::copy(values.begin(), values.end(), column.mutableData<T>());
    return column;
}

Column stringColumn(std::initializer_list<std::string_view> values)
{
    Column column(TypeId::String);
    for (const std::string_view value : values)
    {
        column.appendString(value);
    }
    return column;
}

/// One column of every type, three rows, NULLs in some.
Block everyType()
{
    Block block;
    block.columns.push_back({"u8", fixedColumn<uint8_t>(TypeId::UInt8, {0, 200, 7})});
    block.columns.push_back({"u16", fixedColumn<uint16_t>(TypeId::UInt16, {1, 65535, 2})});
    block.columns.push_back({"u32", fixedColumn<uint32_t>(TypeId::UInt32, {3, 0, 4000000000u})});
    block.columns.push_back({"u64", fixedColumn<uint64_t>(TypeId::UInt64, {UINT64_MAX, 5, 6})});
    block.columns.push_back({"i8", fixedColumn<int8_t>(TypeId::Int8, {-1, 2, -128})});
    block.columns.push_back({"i16", fixedColumn<int16_t>(TypeId::Int16, {-300, 3, 4})});
    block.columns.push_back({"i32", fixedColumn<int32_t>(TypeId::Int32, {INT32_MIN, 0, 9})});
    block.columns.push_back({"i64", fixedColumn<int64_t>(TypeId::Int64, {-5, INT64_MAX, 1})});
    block.columns.push_back({"f32", fixedColumn<float>(TypeId::Float32, {0.25f, -1.5f, 3.f})});
    block.columns.push_back({"f64", fixedColumn<double>(TypeId::Float64, {0.1, 2e300, -0.})});
    block.columns.push_back({"date", fixedColumn<uint16_t>(TypeId::Date, {0, 19000, 65535})});
    block.columns.push_back(
        {"time", fixedColumn<uint32_t>(TypeId::DateTime, {0, 1700000000u, UINT32_MAX})});
    block.columns.push_back({"text", stringColumn({"", "two", "a string over twelve bytes"})});
    for (const size_t column : {1, 4, 9, 10, 12})
    {
        block.columns[column].column.setNull(column % 3);
    }
    return block;
}

TEST(ArrowExport, EveryTypeHasItsDefaultFormatAndReadsBack)
{
    Block block = everyType();
    const auto expected = renderBlock(block);
    ExportedBatch exported;
    exportBlock(std::move(block), &exported.array, &exported.schema);

    const std::vector<std::string> formats = {"C", "S", "I", "L",   "c",    "s", "i",
                                              "l", "f", "g", "tdD", "tss:", "U"};
    ASSERT_EQ(exported.schema.n_children, static_cast<int64_t>(formats.size()));
    EXPECT_STREQ(exported.schema.format, "+s");
    EXPECT_EQ(exported.array.n_buffers, 1);
    EXPECT_EQ(exported.array.buffers[0], nullptr);
    EXPECT_EQ(exported.array.null_count, 0);
    for (size_t i = 0; i < formats.size(); ++i)
    {
        const ArrowSchema& field = *exported.schema.children[i];
        const ArrowArray& column = *exported.array.children[i];
        const bool has_nulls = i == 1 || i == 4 || i == 9 || i == 10 || i == 12;
        EXPECT_EQ(field.format, formats[i]);
        EXPECT_EQ((field.flags & ARROW_FLAG_NULLABLE) != 0, has_nulls) << field.name;
        EXPECT_EQ(column.null_count, has_nulls ? 1 : 0) << field.name;
        EXPECT_EQ(column.buffers[0] != nullptr, has_nulls) << field.name;
        EXPECT_EQ(column.length, 3);
    }
    const std::vector<ArrowField> fields = importSchema(exported.schema);
    EXPECT_EQ(renderBatch(importBatch(exported.array, fields)), expected);
}

TEST(ArrowExport, ColumnsMoveIntoTheArraysWithoutACopy)
{
    Block block = everyType();
    const ColumnView numbers = block.columns[7].column.view();
    const ColumnView texts = block.columns[12].column.view();
    ExportedBatch exported;
    exportBlock(std::move(block), &exported.array, &exported.schema);
    EXPECT_EQ(exported.array.children[7]->buffers[1], numbers.data);
    EXPECT_EQ(exported.array.children[12]->buffers[0], texts.validity);
    EXPECT_EQ(exported.array.children[12]->buffers[1], texts.offsets);
    EXPECT_EQ(exported.array.children[12]->buffers[2], texts.chars);
}

TEST(ArrowExport, FormatsPickTheArrowTypeOfEachColumn)
{
    Block block;
    block.columns.push_back({"day", fixedColumn<int32_t>(TypeId::Int32, {-1, 19000})});
    block.columns.push_back({"at", fixedColumn<int64_t>(TypeId::Int64, {1, -2})});
    block.columns.push_back({"name", stringColumn({"x", "yz"})});
    block.columns.push_back({"flag", fixedColumn<uint8_t>(TypeId::UInt8, {1, 0})});
    block.columns.push_back({"plain", fixedColumn<uint16_t>(TypeId::UInt16, {5, 6})});
    block.columns.push_back({"when", fixedColumn<uint32_t>(TypeId::DateTime, {7, 8})});
    const std::vector<std::string> formats = {"tdD", "tsu:UTC", "u", "b", "", "tss:UTC"};
    const auto expected = renderBlock(block);
    ExportedBatch exported;
    exportBlock(std::move(block), &exported.array, &exported.schema, formats);
    const std::vector<ArrowField> fields = importSchema(exported.schema);
    const std::vector<std::string> exported_formats = {"tdD", "tsu:UTC", "u", "b", "S", "tss:UTC"};
    for (size_t i = 0; i < fields.size(); ++i)
    {
        EXPECT_EQ(fields[i].format, exported_formats[i]);
    }
    EXPECT_EQ(renderBatch(importBatch(exported.array, fields)), expected);
}

void expectExportError(Block block, std::vector<std::string> formats, ErrorCode code,
                       const std::string& message)
{
    ExportedBatch exported;
    try
    {
        exportBlock(std::move(block), &exported.array, &exported.schema, formats);
        ADD_FAILURE() << "no error; expected " << message;
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), code);
        EXPECT_THAT(error.what(), HasSubstr(message));
    }
    EXPECT_EQ(exported.array.release, nullptr);
    EXPECT_EQ(exported.schema.release, nullptr);
}

TEST(ArrowExport, FormatsThatDoNotFitTheColumnAreRefused)
{
    const std::vector<std::pair<Column, std::string>> cases = {
        {fixedColumn<int32_t>(TypeId::Int32, {1}), "l"},
        {fixedColumn<uint16_t>(TypeId::Date, {1}), "tdm"},
        {fixedColumn<uint32_t>(TypeId::DateTime, {1}), "tsu:"},
        {fixedColumn<double>(TypeId::Float64, {1}), "u"},
        {fixedColumn<int8_t>(TypeId::Int8, {1}), "b"},
        {stringColumn({"x"}), "vu"},
    };
    for (const auto& [column, format] : cases)
    {
        SCOPED_TRACE(format);
        Block block;
        block.columns.push_back({"first", fixedColumn<uint8_t>(TypeId::UInt8, {1})});
        block.columns.push_back({"second", column});
        expectExportError(std::move(block), {"", format}, ErrorCode::kTypeMismatch,
                          "Arrow column 1 'second': a " + std::string(typeName(column.type())) +
                              " column cannot be exported as Arrow format '" + format + "'");
    }
}

TEST(ArrowExport, UnevenColumnsAndFormatCountsAreRefused)
{
    Block uneven;
    uneven.columns.push_back({"a", fixedColumn<uint8_t>(TypeId::UInt8, {1, 2})});
    uneven.columns.push_back({"b", fixedColumn<uint8_t>(TypeId::UInt8, {1})});
    expectExportError(std::move(uneven), {}, ErrorCode::kBadArguments,
                      "Arrow column 1 'b': it has 1 rows, the block's first column 2");
    Block block;
    block.columns.push_back({"a", fixedColumn<uint8_t>(TypeId::UInt8, {1})});
    expectExportError(std::move(block), {"C", "C"}, ErrorCode::kBadArguments,
                      "Arrow batch: 2 formats were given for 1 columns");
}

TEST(ArrowExport, EmptyBlocksExport)
{
    Block block;
    block.columns.push_back({"n", Column(TypeId::Int64)});
    block.columns.push_back({"s", Column(TypeId::String)});
    block.columns.push_back({"d", Column(TypeId::Date)});
    ExportedBatch exported;
    exportBlock(std::move(block), &exported.array, &exported.schema,
                std::vector<std::string>{"", "u", ""});
    EXPECT_EQ(exported.array.length, 0);
    for (int64_t i = 0; i < exported.array.n_children; ++i)
    {
        for (int64_t buffer = 1; buffer < exported.array.children[i]->n_buffers; ++buffer)
        {
            EXPECT_NE(exported.array.children[i]->buffers[buffer], nullptr);
        }
    }
    const ImportedBatch imported = importBatch(exported.array, importSchema(exported.schema));
    EXPECT_EQ(imported.rows, 0u);
    EXPECT_EQ(imported.columns.size(), 3u);

    ExportedBatch no_columns;
    exportBlock(Block{}, &no_columns.array, &no_columns.schema);
    EXPECT_EQ(no_columns.array.n_children, 0);
    EXPECT_TRUE(importBatch(no_columns.array, importSchema(no_columns.schema)).columns.empty());
}

TEST(ArrowExport, SchemaOfFields)
{
    const std::vector<ArrowField> fields = {
        plainField("k", TypeId::UInt32, false, ""),
        plainField("ts", TypeId::Int64, true, "tsn:UTC"),
        plainField("s", TypeId::String, true, "u"),
    };
    ExportedBatch exported;
    exportSchema(fields, &exported.schema);
    ASSERT_EQ(exported.schema.n_children, 3);
    EXPECT_STREQ(exported.schema.children[0]->format, "I");
    EXPECT_EQ(exported.schema.children[0]->flags, 0);
    EXPECT_STREQ(exported.schema.children[1]->format, "tsn:UTC");
    EXPECT_EQ(exported.schema.children[1]->flags, ARROW_FLAG_NULLABLE);
    EXPECT_STREQ(exported.schema.children[2]->name, "s");
    EXPECT_THROW(exportSchema({plainField("bad", TypeId::Float32, true, "l")}, &exported.schema),
                 Exception);
}

/// Stands in for an exported node's release callback to count its calls, then calls it.
template <typename Node>
struct CountingRelease
{
    void (*release)(Node*);
    void* private_data;
    int* calls;
};

template <typename Node>
void countingRelease(Node* node)
{
    auto* counting = static_cast<CountingRelease<Node>*>(node->private_data);
    node->release = counting->release;
    node->private_data = counting->private_data;
    ++*counting->calls;
    delete counting;
    node->release(node);
    EXPECT_EQ(node->release, nullptr);
}

template <typename Node>
void countReleases(Node& node, int& calls)
{
    node.private_data = new CountingRelease<Node>{node.release, node.private_data, &calls};
    node.release = &countingRelease<Node>;
}

/// Exports three columns and counts the releases of the parent and each child, while child 0
/// is moved out and released after the parent and child 2 is released before it.
template <typename Node>
void auditReleases(Node& parent)
{
    int parent_calls = 0;
    std::array<int, 3> child_calls{};
    countReleases(parent, parent_calls);
    for (size_t i = 0; i < child_calls.size(); ++i)
    {
        countReleases(*parent.children[i], child_calls[i]);
    }
    Node moved = *parent.children[0];  // "Moving child arrays": copy, mark the source released.
    parent.children[0]->release = nullptr;
    parent.children[2]->release(parent.children[2]);
    EXPECT_EQ(child_calls[2], 1);
    parent.release(&parent);
    EXPECT_EQ(parent_calls, 1);
    EXPECT_EQ(child_calls, (std::array<int, 3>{0, 1, 1}));
    moved.release(&moved);
    EXPECT_EQ(child_calls, (std::array<int, 3>{1, 1, 1}));
}

Block threeColumns()
{
    Block block;
    block.columns.push_back({"text", stringColumn({"moved", "out"})});
    block.columns.push_back({"number", fixedColumn<int64_t>(TypeId::Int64, {1, 2})});
    block.columns.push_back({"date", fixedColumn<uint16_t>(TypeId::Date, {3, 4})});
    block.columns[0].column.setNull(1);
    return block;
}

TEST(ArrowExport, EveryArrayIsReleasedOnceAndChildrenOutliveTheirParent)
{
    ArrowArray array{};
    ArrowSchema schema{};
    exportBlock(threeColumns(), &array, &schema, std::vector<std::string>{"u", "", ""});
    schema.release(&schema);
    ArrowArray moved_text = *array.children[0];
    array.children[0]->release = nullptr;
    array.release(&array);
    // The moved child's buffers live on after the parent is gone.
    EXPECT_EQ(std::string_view(static_cast<const char*>(moved_text.buffers[2]), 8), "movedout");
    EXPECT_EQ(moved_text.null_count, 1);
    moved_text.release(&moved_text);

    exportBlock(threeColumns(), &array, &schema);
    schema.release(&schema);
    auditReleases(array);
}

TEST(ArrowExport, EverySchemaIsReleasedOnceAndChildrenOutliveTheirParent)
{
    ArrowArray array{};
    ArrowSchema schema{};
    exportBlock(threeColumns(), &array, &schema);
    array.release(&array);
    ArrowSchema moved_text = *schema.children[0];
    schema.children[0]->release = nullptr;
    schema.release(&schema);
    EXPECT_STREQ(moved_text.name, "text");
    EXPECT_STREQ(moved_text.format, "U");
    moved_text.release(&moved_text);

    exportBlock(threeColumns(), &array, &schema);
    array.release(&array);
    auditReleases(schema);
}

/// Two Array columns (topK's and quantiles' results): String elements and Int64 elements.
Block arrayColumns()
{
    Block block;
    Column texts(DataType::array(TypeId::String));
    for (const std::vector<std::string_view>& row :
         {std::vector<std::string_view>{"a", "a string over twelve bytes"}, {}, {"d"}})
    {
        for (const std::string_view text : row)
        {
            texts.child(0).appendString(text);
        }
        texts.closeNestedRow();
    }
    Column numbers(DataType::array(TypeId::Int64));
    for (const std::vector<int64_t>& row : {std::vector<int64_t>{1}, {2, -3}, {}})
    {
        for (const int64_t number : row)
        {
            numbers.child(0).append(number);
        }
        numbers.closeNestedRow();
    }
    block.columns.push_back({"texts", std::move(texts)});
    block.columns.push_back({"numbers", std::move(numbers)});
    return block;
}

TEST(ArrowExport, ArrayColumnsAreLargeListsWithTheirOffsetsAndElementChild)
{
    ArrowArray array{};
    ArrowSchema schema{};
    exportBlock(arrayColumns(), &array, &schema);
    ASSERT_EQ(schema.n_children, 2);
    EXPECT_STREQ(schema.children[0]->format, "+L");
    ASSERT_EQ(schema.children[0]->n_children, 1);
    EXPECT_STREQ(schema.children[0]->children[0]->name, "item");
    EXPECT_STREQ(schema.children[0]->children[0]->format, "U");
    EXPECT_STREQ(schema.children[1]->children[0]->format, "l");

    const ArrowArray& texts = *array.children[0];
    EXPECT_EQ(texts.length, 3);
    ASSERT_EQ(texts.n_buffers, 2);
    ASSERT_EQ(texts.n_children, 1);
    const auto* offsets = static_cast<const int64_t*>(texts.buffers[1]);
    EXPECT_EQ(std::vector<int64_t>(offsets, offsets + 4), (std::vector<int64_t>{0, 2, 2, 3}));
    EXPECT_EQ(texts.children[0]->length, 3);
    const ArrowArray& numbers = *array.children[1];
    const auto* values = static_cast<const int64_t*>(numbers.children[0]->buffers[1]);
    EXPECT_EQ(std::vector<int64_t>(values, values + 3), (std::vector<int64_t>{1, 2, -3}));

    // The elements, moved out, outlive both the list and the struct; each node is released once.
    int struct_calls = 0;
    int list_calls = 0;
    int element_calls = 0;
    countReleases(array, struct_calls);
    countReleases(*array.children[0], list_calls);
    countReleases(*array.children[0]->children[0], element_calls);
    ArrowArray elements = *array.children[0]->children[0];
    array.children[0]->children[0]->release = nullptr;
    array.release(&array);
    EXPECT_EQ(struct_calls, 1);
    EXPECT_EQ(list_calls, 1);
    EXPECT_EQ(element_calls, 0);
    const auto* element_offsets = static_cast<const int64_t*>(elements.buffers[1]);
    EXPECT_EQ(std::string_view(static_cast<const char*>(elements.buffers[2]) + element_offsets[2],
                               element_offsets[3] - element_offsets[2]),
              "d");
    elements.release(&elements);
    EXPECT_EQ(element_calls, 1);

    int schema_calls = 0;
    int element_schema_calls = 0;
    countReleases(schema, schema_calls);
    countReleases(*schema.children[0]->children[0], element_schema_calls);
    schema.release(&schema);
    EXPECT_EQ(schema_calls, 1);
    EXPECT_EQ(element_schema_calls, 1);
}

TEST(ArrowExport, ArrayColumnsTakeOnlyTheLargeListFormat)
{
    ArrowArray array{};
    EXPECT_THROW(exportBlockArray(arrayColumns(), &array, std::vector<std::string>{"+l", ""}),
                 Exception);
}

}  // namespace
}  // namespace granary::arrow::testing
