// A bounded fuzz of the RowBinary and JSONEachRow decoders: valid inputs with bytes flipped,
// cut, inserted or repeated must decode or fail with a granary::Exception, never crash or
// throw anything else (run under AddressSanitizer by the sanitizer build). JSON columns are
// fuzzed through Rotel-shaped spans (Dynamic-tagged values, Array(JSON)), and what decodes is
// written back as JSON text, so that the renderer meets every value the decoder lets in.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/datagen/otel_spans.h"
#include "engine/formats/output_format.h"
#include "engine/ingest/json_each_row_reader.h"
#include "engine/ingest/row_binary_reader.h"
#include "tests/ingest/ingest_test_support.h"
#include "tests/support/byte_mutation_fuzz.h"

namespace granary::ingest
{
namespace
{

using testing::schemaOf;

/// Mutations tried per format: enough to reach every error path, bounded for CI.
constexpr size_t kMutations = 20000;

const TableSchema kSchema = schemaOf(
    {{"a", TypeId::UInt64}, {"s", TypeId::String}, {"d", TypeId::Date}, {"f", TypeId::Float32}});

std::string sample(OutputFormat format)
{
    Block block = kSchema.emptyBlock();
    for (uint64_t row = 0; row < 40; ++row)
    {
        block.columns[0].column.append<uint64_t>(row * 1000003);
        block.columns[1].column.appendString(
            std::string(row % 7, static_cast<char>('a' + row % 26)));
        block.columns[2].column.append<uint16_t>(static_cast<uint16_t>(row * 97));
        block.columns[3].column.append<float>(static_cast<float>(row) / 3);
    }
    std::ostringstream out;
    writeBlock(block, format, out);
    return out.str();
}

TEST(DecoderFuzz, RowBinary)
{
    granary::testing::fuzzDecoder(
        sample(OutputFormat::kRowBinary), kMutations, 20261204,
        [](std::string_view input)
        {
            BinaryCursor cursor(input);
            RowBinaryReader(kSchema, kSchema.fieldColumns({}), {1 << 16}).readAll(cursor);
        });
}

TEST(DecoderFuzz, RowBinaryWithNamesAndTypes)
{
    granary::testing::fuzzDecoder(sample(OutputFormat::kRowBinaryWithNamesAndTypes), kMutations,
                                  20261204,
                                  [](std::string_view input)
                                  {
                                      BinaryCursor cursor(input);
                                      RowBinaryReader::fromHeader(kSchema, cursor).readAll(cursor);
                                  });
}

TEST(DecoderFuzz, JsonEachRow)
{
    granary::testing::fuzzDecoder(sample(OutputFormat::kJSONEachRow), kMutations, 20261204,
                                  [](std::string_view input)
                                  { readJsonEachRow(kSchema, kSchema.fieldColumns({}), input); });
}

/// What an accepted input must also survive: its text form.
void writeAsJson(const std::vector<Block>& blocks)
{
    std::ostringstream out;
    for (const Block& block : blocks)
    {
        writeBlock(block, OutputFormat::kJSONEachRow, out);
    }
}

TEST(DecoderFuzz, RowBinaryJsonColumnsOfSpans)
{
    const TableSchema& schema = datagen::otelTracesSchema(datagen::AttributeEncoding::kJson);
    std::ostringstream sample;
    writeBlock(datagen::generateSpans(0, 12, 5, datagen::AttributeEncoding::kJson),
               OutputFormat::kRowBinary, sample);
    granary::testing::fuzzDecoder(
        sample.str(), kMutations, 20261205,
        [&](std::string_view input)
        {
            BinaryCursor cursor(input);
            writeAsJson(RowBinaryReader(schema, schema.fieldColumns({}), {1 << 16, 1 << 12})
                            .readAll(cursor));
        });
}

TEST(DecoderFuzz, JsonEachRowIntoJsonColumns)
{
    const TableSchema schema = schemaOf({{"id", TypeId::UInt32}});
    TableSchema with_json = schema;
    with_json.columns.push_back({"j", parseDataType("JSON(a.b Int64, SKIP s)"), {}});
    const std::string sample =
        "{\"id\":1,\"j\":{\"a\":{\"b\":7,\"c\":[1,\"x\",null,{\"d\":true}]},\"s\":{\"k\":1}}}\n"
        "{\"id\":2,\"j\":{\"e\":-1.5e3,\"f\":\"\\u00e9\",\"g\":18446744073709551615}}\n"
        "{\"id\":3,\"j\":null}\n";
    granary::testing::fuzzDecoder(
        sample, kMutations, 20261205,
        [&](std::string_view input)
        { writeAsJson(readJsonEachRow(with_json, with_json.fieldColumns({}), input)); });
}

}  // namespace
}  // namespace granary::ingest
