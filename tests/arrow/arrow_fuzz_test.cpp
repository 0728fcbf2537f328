// Randomised structural corruption of valid batches: importSchema and importBatch must either
// succeed or throw granary::Exception, never crash or read outside the buffers (ASan checks).
// Corruption stays within what a consumer can check: lengths, offsets and n_buffers never reach
// past the allocations (Arrow carries no buffer sizes; the test arrays have spare room and
// buffer slots), and a string dictionary's values keep their format, whose offsets decide which
// chars are copied.

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "engine/arrow/arrow_format.h"
#include "engine/arrow/arrow_import.h"
#include "engine/common/exception.h"
#include "tests/arrow/arrow_test_producer.h"

namespace granary::arrow::testing
{
namespace
{

constexpr uint32_t kSeed = 20250601;
constexpr int kIterations = 20000;
constexpr int kMaxMutations = 3;
constexpr size_t kMaxColumns = 4;
constexpr size_t kMaxRows = 24;
constexpr size_t kMaxPadding = 5;
constexpr size_t kMaxDictionary = 6;
constexpr size_t kMaxStringLength = 6;

enum class ColumnKind
{
    kFixed,
    kBoolean,
    kUtf8,
    kLargeUtf8,
    kFixedDictionary,
    kStringDictionary,
};
constexpr int kColumnKinds = 6;

const std::vector<std::string> kFixedFormats = {"c", "C", "s", "S",   "i",   "I",    "l",
                                                "L", "f", "g", "tdD", "tdm", "tsu:", "tss:UTC"};
const std::vector<std::string> kIndexFormats = {"c", "C", "s", "S", "i", "I", "l", "L"};
const std::vector<std::string> kMutatedFormats = {
    "c",   "C",    "s", "S", "i",  "I",  "l",  "L",      "f", "g", "b",    "tdD",
    "tdm", "tsu:", "u", "U", "vu", "+s", "+l", "d:10,2", "",  "w:16", "tsq:", "tdD2"};

/// A valid batch and what each column was built as (mutations may change what it says).
struct FuzzBatch
{
    TestBatch batch;
    std::vector<ColumnKind> kinds;
    std::vector<size_t> index_widths;  ///< Bytes per dictionary index as built; 0 elsewhere.
};

class BatchFuzzer
{
public:
    explicit BatchFuzzer(uint32_t seed) : random_(seed) {}

    FuzzBatch validBatch();
    void mutate(FuzzBatch& fuzz);

private:
    size_t below(size_t bound)
    {
        return std::uniform_int_distribution<size_t>(0, bound - 1)(random_);
    }
    int64_t between(int64_t low, int64_t high)
    {
        return std::uniform_int_distribution<int64_t>(low, high)(random_);
    }
    bool coin() { return below(2) == 0; }
    template <typename T>
    const T& pick(const std::vector<T>& choices)
    {
        return choices[below(choices.size())];
    }

    template <typename T>
    Rows<T> randomRows(size_t count, int64_t low, int64_t high);
    Rows<std::string> randomStrings(size_t count);
    std::unique_ptr<TestArray> integerArray(const std::string& format, size_t rows, int64_t low,
                                            int64_t high, size_t padding);
    TestColumn randomColumn(ColumnKind kind, size_t rows, const std::string& name);

    TestArray& randomArray(FuzzBatch& fuzz);
    void mutateFormat(FuzzBatch& fuzz);
    void mutateLengthAndOffset(TestArray& array, bool is_struct);
    void mutateStringOffset(FuzzBatch& fuzz);
    void mutateDictionaryIndex(FuzzBatch& fuzz);

    std::mt19937 random_;
};

template <typename T>
Rows<T> BatchFuzzer::randomRows(size_t count, int64_t low, int64_t high)
{
    Rows<T> rows;
    for (size_t i = 0; i < count; ++i)
    {
        rows.push_back(below(4) == 0 ? std::nullopt
                                     : std::optional(static_cast<T>(between(low, high))));
    }
    return rows;
}

Rows<std::string> BatchFuzzer::randomStrings(size_t count)
{
    Rows<std::string> rows;
    for (size_t i = 0; i < count; ++i)
    {
        rows.push_back(below(4) == 0 ? std::nullopt
                                     : std::optional(std::string(below(kMaxStringLength), 'q')));
    }
    return rows;
}

/// Values in [low, high] stored with `format`'s width (a fixed-width format).
std::unique_ptr<TestArray> BatchFuzzer::integerArray(const std::string& format, size_t rows,
                                                     int64_t low, int64_t high, size_t padding)
{
    switch (parseArrowFormat(format)->width)
    {
        case sizeof(int8_t):
            return fixedArray<int8_t>(randomRows<int8_t>(rows, low, high), padding);
        case sizeof(int16_t):
            return fixedArray<int16_t>(randomRows<int16_t>(rows, low, high), padding);
        case sizeof(int32_t):
            return fixedArray<int32_t>(randomRows<int32_t>(rows, low, high), padding);
        default:
            return fixedArray<int64_t>(randomRows<int64_t>(rows, low, high), padding);
    }
}

TestColumn BatchFuzzer::randomColumn(ColumnKind kind, size_t rows, const std::string& name)
{
    const size_t padding = below(kMaxPadding + 1);
    const size_t dictionary_size = below(kMaxDictionary) + 1;
    const int64_t last_index = static_cast<int64_t>(dictionary_size) - 1;
    switch (kind)
    {
        case ColumnKind::kFixed:
        {
            const std::string& format = pick(kFixedFormats);
            return {fieldSchema(format, name), integerArray(format, rows, -100, 100, padding)};
        }
        case ColumnKind::kBoolean:
            return {fieldSchema("b", name), booleanArray(randomRows<bool>(rows, 0, 1), padding)};
        case ColumnKind::kUtf8:
            return {fieldSchema("u", name), utf8Array(randomStrings(rows), padding)};
        case ColumnKind::kLargeUtf8:
            return {fieldSchema("U", name), largeUtf8Array(randomStrings(rows), padding)};
        case ColumnKind::kFixedDictionary:
        {
            const std::string& index_format = pick(kIndexFormats);
            return {dictionarySchema(index_format, "l", name),
                    withDictionary(integerArray(index_format, rows, 0, last_index, padding),
                                   fixedArray<int64_t>(randomRows<int64_t>(dictionary_size, -9, 9),
                                                       below(kMaxPadding + 1)))};
        }
        case ColumnKind::kStringDictionary:
        {
            const std::string& index_format = pick(kIndexFormats);
            const bool large = coin();
            auto values = large ? largeUtf8Array(randomStrings(dictionary_size), below(3))
                                : utf8Array(randomStrings(dictionary_size), below(3));
            return {dictionarySchema(index_format, large ? "U" : "u", name),
                    withDictionary(integerArray(index_format, rows, 0, last_index, padding),
                                   std::move(values))};
        }
    }
    __builtin_unreachable();
}

FuzzBatch BatchFuzzer::validBatch()
{
    const size_t length = below(kMaxRows + 1);
    const size_t offset = below(kMaxPadding + 1);
    FuzzBatch fuzz;
    std::vector<TestColumn> columns;
    const size_t column_count = below(kMaxColumns) + 1;
    for (size_t i = 0; i < column_count; ++i)
    {
        fuzz.kinds.push_back(static_cast<ColumnKind>(below(kColumnKinds)));
        std::string name = "c";
        name += std::to_string(i);
        columns.push_back(randomColumn(fuzz.kinds.back(), offset + length, name));
        const bool is_dictionary = columns.back().schema->dictionary != nullptr;
        fuzz.index_widths.push_back(
            is_dictionary ? parseArrowFormat(columns.back().schema->format)->width : 0);
    }
    std::optional<std::vector<bool>> valid;
    if (coin())
    {
        valid.emplace();
        for (size_t row = 0; row < offset + length; ++row)
        {
            valid->push_back(below(5) != 0);
        }
    }
    fuzz.batch = batchOf(std::move(columns), length, offset, valid);
    return fuzz;
}

TestArray& BatchFuzzer::randomArray(FuzzBatch& fuzz)
{
    TestArray& root = *fuzz.batch.array;
    const size_t choice = below(root.children.size() + 1);
    if (choice == root.children.size())
    {
        return root;
    }
    TestArray& child = *root.children[choice];
    return child.dictionary != nullptr && coin() ? *child.dictionary : child;
}

void BatchFuzzer::mutateFormat(FuzzBatch& fuzz)
{
    TestSchema& root = *fuzz.batch.schema;
    const size_t column = below(root.children.size() + 1);
    if (column == root.children.size())
    {
        root.setFormat(pick(kMutatedFormats));
        return;
    }
    TestSchema& field = *root.children[column];
    // A string dictionary's value format decides where its chars are read: kept.
    const bool dictionary_values = fuzz.kinds[column] == ColumnKind::kFixedDictionary && coin();
    (dictionary_values ? *field.dictionary : field).setFormat(pick(kMutatedFormats));
}

void BatchFuzzer::mutateLengthAndOffset(TestArray& array, bool is_struct)
{
    const auto capacity = static_cast<int64_t>(array.capacity);
    if (is_struct)
    {
        // Children are checked to cover the struct's rows, and hold them.
        array.array.offset = between(-2, capacity + 2);
        array.array.length = between(-2, capacity + 2);
        return;
    }
    array.array.offset = between(-1, capacity);
    array.array.length = between(-1, capacity - std::max<int64_t>(array.array.offset, 0));
}

/// Sets one of `strings`' offsets to a value from -3 to its chars' length.
template <typename Offset>
void setStringOffset(TestArray& strings, size_t entry, int64_t value)
{
    strings.bufferAs<Offset>(1)[entry] = static_cast<Offset>(value);
}

void BatchFuzzer::mutateStringOffset(FuzzBatch& fuzz)
{
    const size_t column = below(fuzz.kinds.size());
    const ColumnKind kind = fuzz.kinds[column];
    const bool is_dictionary = kind == ColumnKind::kStringDictionary;
    if (kind != ColumnKind::kUtf8 && kind != ColumnKind::kLargeUtf8 && !is_dictionary)
    {
        return;
    }
    TestArray& child = *fuzz.batch.array->children[column];
    TestArray& strings = is_dictionary ? *child.dictionary : child;
    // The layout the array was built with (a leaf's format may have been mutated since).
    const bool narrow =
        kind == ColumnKind::kUtf8 ||
        (is_dictionary && fuzz.batch.schema->children[column]->dictionary->format == "u");
    const size_t entry = below(strings.capacity + 1);
    const int64_t chars = narrow ? strings.bufferAs<int32_t>(1)[strings.capacity]
                                 : strings.bufferAs<int64_t>(1)[strings.capacity];
    const int64_t value = between(-3, chars);
    narrow ? setStringOffset<int32_t>(strings, entry, value)
           : setStringOffset<int64_t>(strings, entry, value);
}

void BatchFuzzer::mutateDictionaryIndex(FuzzBatch& fuzz)
{
    const size_t column = below(fuzz.kinds.size());
    TestArray& child = *fuzz.batch.array->children[column];
    if (child.dictionary == nullptr || child.capacity == 0)
    {
        return;
    }
    // Indices are little-endian and small: the low byte of an element sets its value, to
    // -3 (a large value in wider unsigned types) up to past the dictionary's end.
    const auto dictionary_size = static_cast<int64_t>(child.dictionary->capacity);
    const size_t element = below(child.capacity);
    child.bufferAs<int8_t>(1)[element * fuzz.index_widths[column]] =
        static_cast<int8_t>(between(-3, dictionary_size + 3));
}

void BatchFuzzer::mutate(FuzzBatch& fuzz)
{
    constexpr int kMutationKinds = 11;
    TestArray& array = randomArray(fuzz);
    const bool is_struct = &array == fuzz.batch.array.get();
    switch (below(kMutationKinds))
    {
        case 0:
            mutateFormat(fuzz);
            break;
        case 1:
            array.array.n_buffers = between(-1, 4);
            break;
        case 2:
            array.array.n_children = between(-1, 5);
            break;
        case 3:
            mutateLengthAndOffset(array, is_struct);
            break;
        case 4:
            array.array.null_count = between(-3, array.array.length + 2);
            break;
        case 5:
            array.buffers[below(array.buffers.size())] = nullptr;
            break;
        case 6:
            array.array.buffers = nullptr;
            break;
        case 7:
            array.array.release = nullptr;
            break;
        case 8:
            mutateStringOffset(fuzz);
            break;
        case 9:
            mutateDictionaryIndex(fuzz);
            break;
        default:
            if (is_struct)
            {
                array.child_pointers[below(array.child_pointers.size())] = nullptr;
            }
            else
            {
                array.array.dictionary = nullptr;
            }
            break;
    }
}

/// Reads every value, bitmap bit and string offset of an imported batch, for ASan to see.
uint64_t touchEveryValue(const ImportedBatch& batch, const std::vector<ArrowField>& fields)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < batch.columns.size(); ++i)
    {
        const ColumnView& column = batch.columns[i];
        for (size_t row = 0; row < column.rows; ++row)
        {
            sum += column.isValid(row) ? 1 : 0;
            if (isString(column.type))
            {
                sum += column.offsets[row + 1] - column.offsets[row];
                // A decoded dictionary's chars are the batch's own; other columns' chars are
                // not read by importBatch, and corrupt offsets may point anywhere.
                sum += fields[i].dictionary ? column.stringAt(row).size() : 0;
            }
            else
            {
                uint64_t value = 0;
                std::memcpy(
                    &value,
                    static_cast<const std::byte*>(column.data) + row * fixedWidth(column.type),
                    fixedWidth(column.type));
                sum += value;
            }
        }
    }
    return sum;
}

TEST(ArrowFuzz, CorruptBatchesImportOrThrowGranaryExceptions)
{
    BatchFuzzer fuzzer(kSeed);
    std::mt19937 choices(kSeed);
    int imported = 0;
    int refused = 0;
    for (int iteration = 0; iteration < kIterations; ++iteration)
    {
        FuzzBatch fuzz = fuzzer.validBatch();
        const int mutations = static_cast<int>(choices() % (kMaxMutations + 1));
        for (int i = 0; i < mutations; ++i)
        {
            fuzzer.mutate(fuzz);
        }
        try
        {
            const std::vector<ArrowField> fields = importSchema(fuzz.batch.schema->schema);
            const ImportedBatch batch = importBatch(fuzz.batch.array->array, fields);
            touchEveryValue(batch, fields);
            ++imported;
        }
        catch (const Exception& error)
        {
            ASSERT_NE(mutations, 0) << "iteration " << iteration << ": " << error.what();
            ++refused;
        }
    }
    // Both outcomes occur in numbers, or the fuzzing is not reaching the checks.
    EXPECT_GT(imported, kIterations / 4);
    EXPECT_GT(refused, kIterations / 4);
}

}  // namespace
}  // namespace granary::arrow::testing
