// A bounded fuzz of the RowBinary and JSONEachRow decoders: valid inputs with bytes flipped,
// cut, inserted or repeated must decode or fail with a granary::Exception, never crash or
// throw anything else (run under AddressSanitizer by the sanitizer build).
#include <gtest/gtest.h>

#include <sstream>

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

}  // namespace
}  // namespace granary::ingest
