// importSchema and importBatch on hand-built arrays: every format, offsets, NULLs, dictionaries,
// and the round trip back through exportBlock.

#include "engine/arrow/arrow_import.h"

#include <gtest/gtest.h>

#include <functional>

#include "engine/arrow/arrow_export.h"
#include "tests/arrow/arrow_round_trip.h"
#include "tests/arrow/arrow_test_producer.h"
#include "tests/arrow/column_rendering.h"

namespace granary::arrow::testing
{
namespace
{

using Rendered = std::vector<std::string>;

/// One Arrow format: how to build an array of it after `padding` skipped rows, and what
/// Granary reads from it.
struct FormatCase
{
    std::string format;
    TypeId type;
    std::function<std::unique_ptr<TestArray>(size_t padding)> make;
    Rendered expected;
};

template <typename T>
Rendered renderExpected(const Rows<T>& rows)
{
    Rendered rendered;
    for (const std::optional<T>& row : rows)
    {
        rendered.push_back(row ? renderValue(*row) : kNullText);
    }
    return rendered;
}

template <typename T>
FormatCase fixedCase(const std::string& format, TypeId type, const Rows<T>& rows)
{
    return {format, type, [rows](size_t padding) { return fixedArray<T>(rows, padding); },
            renderExpected(rows)};
}

const Rows<int32_t> kDays = {0, std::nullopt, -719162, 2932896, 19000};
const Rows<int64_t> kInstants = {0, -1, std::nullopt, INT64_MAX, INT64_MIN, 1700000000123};
const Rows<std::string> kStrings = {"", "a", std::nullopt, "longer than twelve bytes", "é"};

std::vector<FormatCase> formatCases()
{
    std::vector<FormatCase> cases = {
        fixedCase<int8_t>("c", TypeId::Int8, {-128, std::nullopt, 127, 0}),
        fixedCase<uint8_t>("C", TypeId::UInt8, {0, 255, std::nullopt}),
        fixedCase<int16_t>("s", TypeId::Int16, {-32768, 32767, std::nullopt, 5}),
        fixedCase<uint16_t>("S", TypeId::UInt16, {std::nullopt, 65535, 1}),
        fixedCase<int32_t>("i", TypeId::Int32, {INT32_MIN, std::nullopt, INT32_MAX}),
        fixedCase<uint32_t>("I", TypeId::UInt32, {UINT32_MAX, 0, std::nullopt}),
        fixedCase<int64_t>("l", TypeId::Int64, kInstants),
        fixedCase<uint64_t>("L", TypeId::UInt64, {UINT64_MAX, std::nullopt, 0}),
        fixedCase<float>("f", TypeId::Float32, {1.5f, std::nullopt, -0.1f, 3e38f}),
        fixedCase<double>("g", TypeId::Float64, {0.1, std::nullopt, -1e300, 2.5}),
        fixedCase<int32_t>("tdD", TypeId::Int32, kDays),
        fixedCase<int64_t>("tdm", TypeId::Int64, kInstants),
        {"b",
         TypeId::UInt8,
         [](size_t padding) {
             return booleanArray({true, std::nullopt, false, true, true, false}, padding);
         },
         {"1", kNullText, "0", "1", "1", "0"}},
        {"u", TypeId::String, [](size_t padding) { return utf8Array(kStrings, padding); },
         renderExpected(kStrings)},
        {"U", TypeId::String, [](size_t padding) { return largeUtf8Array(kStrings, padding); },
         renderExpected(kStrings)},
    };
    for (const char* timestamp : {"tss:", "tsm:", "tsu:", "tsn:", "tsu:UTC", "tss:Europe/Paris"})
    {
        cases.push_back(fixedCase<int64_t>(timestamp, TypeId::Int64, kInstants));
    }
    return cases;
}

/// Rows an offset skips: none, fewer than a byte of bitmap, more than one byte and not whole.
constexpr size_t kPaddings[] = {0, 3, 13};

/// Exports `block` with `format` for its one column and reads it back.
void expectExportReadsBack(Block block, const std::string& format, const Rendered& expected)
{
    const std::vector<std::string> formats = {format};
    ExportedBatch exported;
    exportBlock(std::move(block), &exported.array, &exported.schema, formats);
    const std::vector<ArrowField> fields = importSchema(exported.schema);
    ASSERT_EQ(fields.size(), 1u);
    EXPECT_EQ(fields[0].format, format);
    EXPECT_EQ(renderBatch(importBatch(exported.array, fields)), std::vector<Rendered>{expected});
}

TEST(ArrowImport, EveryFormatReadsAndRoundTripsThroughExport)
{
    for (const FormatCase& format_case : formatCases())
    {
        for (const size_t padding : kPaddings)
        {
            SCOPED_TRACE("format " + format_case.format + ", offset " + std::to_string(padding));
            std::vector<TestColumn> columns;
            columns.push_back(
                {fieldSchema(format_case.format, "value"), format_case.make(padding)});
            const TestBatch batch = batchOf(std::move(columns), format_case.expected.size());
            const std::vector<ArrowField> fields = importSchema(batch.schema->schema);
            ASSERT_EQ(fields.size(), 1u);
            EXPECT_EQ(fields[0].name, "value");
            EXPECT_EQ(fields[0].type, format_case.type);
            EXPECT_EQ(fields[0].format, format_case.format);
            EXPECT_TRUE(fields[0].nullable);
            const ImportedBatch imported = importBatch(batch.array->array, fields);
            EXPECT_EQ(imported.rows, format_case.expected.size());
            EXPECT_EQ(renderBatch(imported), std::vector<Rendered>{format_case.expected});
            expectExportReadsBack(blockOf(imported, fields), format_case.format,
                                  format_case.expected);
        }
    }
}

TEST(ArrowImport, SingleFieldSchemaReadsTheArrayAsTheColumn)
{
    for (const FormatCase& format_case : formatCases())
    {
        SCOPED_TRACE("format " + format_case.format);
        const auto schema = fieldSchema(format_case.format, "alone", false);
        const auto array = format_case.make(5);
        const std::vector<ArrowField> fields = importSchema(schema->schema);
        ASSERT_EQ(fields.size(), 1u);
        EXPECT_FALSE(fields[0].nullable);
        EXPECT_EQ(renderBatch(importBatch(array->array, fields)),
                  std::vector<Rendered>{format_case.expected});
    }
}

TEST(ArrowImport, FixedWidthValuesAndLargeOffsetsAreNotCopied)
{
    std::vector<TestColumn> columns;
    columns.push_back({fieldSchema("l", "number"), fixedArray<int64_t>({1, 2, 3}, 2)});
    columns.push_back({fieldSchema("U", "large"), largeUtf8Array({"x", "yy", "zzz"}, 2)});
    columns.push_back({fieldSchema("u", "small"), utf8Array({"x", "yy", "zzz"}, 2)});
    const TestBatch batch = batchOf(std::move(columns), 3);
    const ImportedBatch imported =
        importBatch(batch.array->array, importSchema(batch.schema->schema));
    const auto& children = batch.array->children;
    EXPECT_EQ(imported.columns[0].data, children[0]->bufferAs<int64_t>(1) + 2);
    EXPECT_EQ(static_cast<const void*>(imported.columns[1].offsets),
              children[1]->bufferAs<int64_t>(1) + 2);
    EXPECT_EQ(imported.columns[1].chars, children[1]->bufferAs<char>(2));
    // utf8 widens its offsets into the batch; the chars stay where they are.
    EXPECT_NE(static_cast<const void*>(imported.columns[2].offsets),
              children[2]->bufferAs<int32_t>(1) + 2);
    EXPECT_EQ(imported.columns[2].chars, children[2]->bufferAs<char>(2));
}

TEST(ArrowImport, SlicedStructAppliesItsOffsetAndNullsToEveryColumn)
{
    // Struct rows [5, 15) of children whose own offsets are 3 and 0: struct row i is child
    // element child.offset + 5 + i.
    Rows<int32_t> numbers;
    Rows<std::string> names;
    std::vector<bool> struct_valid;
    for (int i = 0; i < 15; ++i)
    {
        numbers.push_back(i % 4 == 1 ? std::nullopt : std::optional(i * 10));
        names.push_back(i % 3 == 2 ? std::nullopt : std::optional(std::to_string(i * 7)));
        struct_valid.push_back(i % 5 != 3);
    }
    std::vector<TestColumn> columns;
    columns.push_back({fieldSchema("i", "number"), fixedArray<int32_t>(numbers, 3)});
    columns.push_back({fieldSchema("u", "name"), utf8Array(names, 0)});
    columns.push_back({fieldSchema("C", "flag"), fixedArray<uint8_t>(Rows<uint8_t>(15, 1), 9)});
    constexpr size_t kStructOffset = 5;
    constexpr size_t kStructLength = 10;
    const TestBatch batch = batchOf(std::move(columns), kStructLength, kStructOffset, struct_valid);
    const ImportedBatch imported =
        importBatch(batch.array->array, importSchema(batch.schema->schema));
    ASSERT_EQ(imported.rows, kStructLength);
    for (size_t row = 0; row < kStructLength; ++row)
    {
        const size_t element = kStructOffset + row;
        const bool struct_row_valid = struct_valid[element];
        EXPECT_EQ(imported.columns[0].isValid(row), struct_row_valid && numbers[element]);
        EXPECT_EQ(imported.columns[1].isValid(row), struct_row_valid && names[element]);
        EXPECT_EQ(imported.columns[2].isValid(row), struct_row_valid);
        if (imported.columns[0].isValid(row))
        {
            EXPECT_EQ(imported.columns[0].valueAt<int32_t>(row), *numbers[element]);
        }
        if (imported.columns[1].isValid(row))
        {
            EXPECT_EQ(imported.columns[1].stringAt(row), *names[element]);
        }
    }
    // A column without NULLs of its own reads the struct's bitmap in place.
    EXPECT_EQ(imported.columns[2].validity, batch.array->bufferAs<uint8_t>(0));
    EXPECT_EQ(imported.columns[2].validity_offset, kStructOffset);
}

TEST(ArrowImport, EmptyBatchNeedsNoValueBuffers)
{
    std::vector<TestColumn> columns;
    columns.push_back({fieldSchema("l", "number"), fixedArray<int64_t>({})});
    columns.push_back({fieldSchema("u", "name"), utf8Array({})});
    columns.push_back({fieldSchema("U", "large"), largeUtf8Array({})});
    columns.push_back({fieldSchema("b", "flag"), booleanArray({})});
    const TestBatch batch = batchOf(std::move(columns), 0);
    for (const auto& child : batch.array->children)
    {
        std::fill(child->buffers.begin(), child->buffers.end(), nullptr);
    }
    const ImportedBatch imported =
        importBatch(batch.array->array, importSchema(batch.schema->schema));
    EXPECT_EQ(imported.rows, 0u);
    ASSERT_EQ(imported.columns.size(), 4u);
    for (const ColumnView& column : imported.columns)
    {
        EXPECT_EQ(column.rows, 0u);
        EXPECT_FALSE(column.hasValidity());
    }
    EXPECT_EQ(imported.columns[1].offsets[0], 0u);
}

TEST(ArrowImport, NullCountDecidesWhetherTheBitmapIsRead)
{
    const auto make = [] { return fixedArray<int16_t>({1, std::nullopt, 3}); };
    const auto schema = fieldSchema("s", "number");
    const std::vector<ArrowField> fields = importSchema(schema->schema);

    auto counted_zero = make();  // The producer promises no NULLs: the bitmap is ignored.
    counted_zero->array.null_count = 0;
    EXPECT_EQ(renderBatch(importBatch(counted_zero->array, fields)),
              (std::vector<Rendered>{{"1", "0", "3"}}));

    auto unknown = make();  // -1: not counted; the bitmap says.
    unknown->array.null_count = -1;
    EXPECT_EQ(renderBatch(importBatch(unknown->array, fields)),
              (std::vector<Rendered>{{"1", kNullText, "3"}}));

    unknown->buffers[0] = nullptr;  // Not counted and no bitmap: no NULLs.
    EXPECT_EQ(renderBatch(importBatch(unknown->array, fields)),
              (std::vector<Rendered>{{"1", "0", "3"}}));
}

TEST(ArrowImport, EmptyStringsMayComeWithoutAChars)
{
    auto array = utf8Array({"", std::nullopt, ""}, 1);
    array->buffers[2] = nullptr;
    const auto schema = fieldSchema("u", "blank");
    EXPECT_EQ(renderBatch(importBatch(array->array, importSchema(schema->schema))),
              (std::vector<Rendered>{{"", kNullText, ""}}));
}

TEST(ArrowImport, DictionariesDecodeWithNullIndicesAndNullValues)
{
    const Rows<int64_t> number_values = {100, std::nullopt, -7};
    const Rows<std::string> string_values = {"red", "green", "a much longer blue value"};
    // NULL index rows hold out-of-range indices: only valid rows' indices are checked.
    const Rows<int16_t> short_indices = {2, 0, std::nullopt, 1, 2, std::nullopt, 0};
    const Rows<uint8_t> byte_indices = {1, std::nullopt, 0, 2, 2};
    std::vector<TestColumn> columns;
    columns.push_back({dictionarySchema("s", "l", "number"),
                       withDictionary(fixedArray<int16_t>(short_indices, 2),
                                      fixedArray<int64_t>(number_values, 4))});
    columns.push_back(
        {dictionarySchema("C", "u", "color"),
         withDictionary(fixedArray<uint8_t>(byte_indices, 3), utf8Array(string_values, 1))});
    columns.push_back({dictionarySchema("i", "U", "wide"),
                       withDictionary(fixedArray<int32_t>({0, 2, std::nullopt, 1, 1}),
                                      largeUtf8Array(string_values, 6))});
    // Struct rows [2, 5).
    const TestBatch batch = batchOf(std::move(columns), 3, 2);
    batch.array->children[0]->bufferAs<int16_t>(1)[2 + 2] = 999;
    const std::vector<ArrowField> fields = importSchema(batch.schema->schema);
    ASSERT_EQ(fields.size(), 3u);
    EXPECT_TRUE(fields[0].dictionary);
    EXPECT_EQ(fields[0].type, TypeId::Int64);
    EXPECT_EQ(fields[0].format, "l");
    EXPECT_EQ(fields[0].index_format, "s");
    EXPECT_EQ(fields[1].type, TypeId::String);
    EXPECT_EQ(fields[2].format, "U");
    const ImportedBatch imported = importBatch(batch.array->array, fields);
    EXPECT_EQ(
        renderBatch(imported),
        (std::vector<Rendered>{{kNullText, kNullText, "-7"},
                               {"red", "a much longer blue value", "a much longer blue value"},
                               {kNullText, "green", "green"}}));
    expectExportReadsBack(Block{{{"color", blockOf(imported, fields).columns[1].column}}}, "u",
                          {"red", "a much longer blue value", "a much longer blue value"});
}

}  // namespace
}  // namespace granary::arrow::testing
