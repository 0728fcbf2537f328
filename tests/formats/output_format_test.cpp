#include "engine/formats/output_format.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "engine/common/exception.h"
#include "tests/formats/test_blocks.h"

namespace granary
{
namespace
{

Block smallBlock()
{
    Block block;
    block.columns.push_back(
        {"id", test::fixedColumn<int64_t>(TypeId::Int64, {1, -20, 9223372036854775807})});
    block.columns.push_back({"name", test::stringColumn({"a\tb", "say \"hi\"", "ёж"})});
    block.columns.push_back({"day", test::fixedColumn<uint16_t>(TypeId::Date, {15888, 15901, 0})});
    block.columns.push_back(
        {"x", test::fixedColumn<double>(TypeId::Float64,
                                        {1.0, 0.5, std::numeric_limits<double>::quiet_NaN()})});
    return block;
}

std::string written(const Block& block, OutputFormat format)
{
    std::ostringstream out;
    writeBlock(block, format, out);
    return out.str();
}

TEST(OutputFormat, NamesAreCaseInsensitiveWithClickHouseAliases)
{
    EXPECT_EQ(outputFormatFromName("TabSeparated"), OutputFormat::kTSV);
    EXPECT_EQ(outputFormatFromName("tsv"), OutputFormat::kTSV);
    EXPECT_EQ(outputFormatFromName("TSVWithNames"), OutputFormat::kTSVWithNames);
    EXPECT_EQ(outputFormatFromName("TabSeparatedWithNames"), OutputFormat::kTSVWithNames);
    EXPECT_EQ(outputFormatFromName("csvWithNames"), OutputFormat::kCSVWithNames);
    EXPECT_EQ(outputFormatFromName("JSONEachRow"), OutputFormat::kJSONEachRow);
    EXPECT_EQ(outputFormatFromName("PRETTYCOMPACT"), OutputFormat::kPrettyCompact);
    try
    {
        outputFormatFromName("Parquet");
        FAIL() << "an unknown format must throw";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownFormat);
        EXPECT_NE(std::string(error.what()).find("Parquet"), std::string::npos);
    }
}

TEST(OutputFormat, TsvEscapesControlCharacters)
{
    EXPECT_EQ(written(smallBlock(), OutputFormat::kTSVWithNames),
              "id\tname\tday\tx\n"
              "1\ta\\tb\t2013-07-02\t1\n"
              "-20\tsay \"hi\"\t2013-07-15\t0.5\n"
              "9223372036854775807\tёж\t1970-01-01\tnan\n");
    Block odd;
    odd.columns.push_back({"s", test::stringColumn({std::string("a\nb\\c'd\0e\r", 10)})});
    EXPECT_EQ(written(odd, OutputFormat::kTSV), "a\\nb\\\\c\\'d\\0e\\r\n");
}

TEST(OutputFormat, CsvQuotesStringsAndDates)
{
    EXPECT_EQ(written(smallBlock(), OutputFormat::kCSVWithNames),
              "\"id\",\"name\",\"day\",\"x\"\n"
              "1,\"a\tb\",\"2013-07-02\",1\n"
              "-20,\"say \"\"hi\"\"\",\"2013-07-15\",0.5\n"
              "9223372036854775807,\"ёж\",\"1970-01-01\",nan\n");
}

TEST(OutputFormat, JsonEachRowWritesOneObjectPerRow)
{
    EXPECT_EQ(written(smallBlock(), OutputFormat::kJSONEachRow),
              "{\"id\":1,\"name\":\"a\\tb\",\"day\":\"2013-07-02\",\"x\":1}\n"
              "{\"id\":-20,\"name\":\"say \\\"hi\\\"\",\"day\":\"2013-07-15\",\"x\":0.5}\n"
              "{\"id\":9223372036854775807,\"name\":\"ёж\",\"day\":\"1970-01-01\",\"x\":null}\n");
}

TEST(OutputFormat, JsonReplacesInvalidUtf8)
{
    Block block;
    // A stray continuation byte, a truncated 2-byte sequence, an overlong '/', a surrogate.
    block.columns.push_back(
        {"s", test::stringColumn({"a\x80z", "\xD0", "\xC0\xAF", "\xED\xA0\x80", "\x01"})});
    EXPECT_EQ(written(block, OutputFormat::kJSONEachRow),
              "{\"s\":\"a\\ufffdz\"}\n{\"s\":\"\\ufffd\"}\n{\"s\":\"\\ufffd\\ufffd\"}\n"
              "{\"s\":\"\\ufffd\\ufffd\\ufffd\"}\n{\"s\":\"\\u0001\"}\n");
}

TEST(OutputFormat, PrettyCompactDrawsClickHouseBox)
{
    Block block;
    block.columns.push_back({"SearchPhrase", test::stringColumn({"ёжик", "a"})});
    block.columns.push_back({"c", test::fixedColumn<uint64_t>(TypeId::UInt64, {70263, 5})});
    EXPECT_EQ(written(block, OutputFormat::kPrettyCompact),
              "┌─SearchPhrase─┬─────c─┐\n"
              "│ ёжик         │ 70263 │\n"
              "│ a            │     5 │\n"
              "└──────────────┴───────┘\n");
}

TEST(OutputFormat, PrettyCompactWritesNothingForNoRows)
{
    Block block;
    block.columns.push_back({"c", Column(TypeId::UInt64)});
    EXPECT_EQ(written(block, OutputFormat::kPrettyCompact), "");
    EXPECT_EQ(written(block, OutputFormat::kTSVWithNames), "c\n");
}

TEST(OutputFormat, PrettyCompactCutsHugeValues)
{
    Block block;
    block.columns.push_back({"s", test::stringColumn({std::string(10005, 'x')})});
    const std::string text = written(block, OutputFormat::kPrettyCompact);
    EXPECT_NE(text.find(std::string(10000, 'x') + "⋯ │"), std::string::npos);
    EXPECT_EQ(text.find(std::string(10001, 'x')), std::string::npos);
}

/// A grouped result and its WITH TOTALS row.
struct GroupsAndTotals
{
    Block groups;
    Block totals;
};

GroupsAndTotals groupsAndTotals()
{
    GroupsAndTotals result;
    result.groups.columns.push_back({"g", test::stringColumn({"a", "b"})});
    result.groups.columns.push_back({"c", test::fixedColumn<uint64_t>(TypeId::UInt64, {2, 1})});
    result.totals.columns.push_back({"g", test::stringColumn({""})});
    result.totals.columns.push_back({"c", test::fixedColumn<uint64_t>(TypeId::UInt64, {3})});
    return result;
}

std::string writtenWithTotals(OutputFormat format)
{
    const GroupsAndTotals result = groupsAndTotals();
    std::ostringstream out;
    writeBlock(result.groups, format, out, {}, &result.totals);
    return out.str();
}

// The layouts clickhouse-client 18.16 prints for a Totals packet (server_test checks Granary's
// against it over the wire too).
TEST(OutputFormat, TotalsFollowAnEmptyLineInTsvAndCsv)
{
    EXPECT_EQ(writtenWithTotals(OutputFormat::kTSVWithNames), "g\tc\na\t2\nb\t1\n\n\t3\n");
    EXPECT_EQ(writtenWithTotals(OutputFormat::kCSV), "\"a\",2\n\"b\",1\n\n\"\",3\n");
}

TEST(OutputFormat, TotalsAreATableOfTheirOwnInPrettyCompact)
{
    EXPECT_EQ(writtenWithTotals(OutputFormat::kPrettyCompact),
              "┌─g─┬─c─┐\n"
              "│ a │ 2 │\n"
              "│ b │ 1 │\n"
              "└───┴───┘\n"
              "\n"
              "Totals:\n"
              "┌─g─┬─c─┐\n"
              "│   │ 3 │\n"
              "└───┴───┘\n");
}

TEST(OutputFormat, TotalsAreAnObjectInJson)
{
    const std::string json = writtenWithTotals(OutputFormat::kJSON);
    EXPECT_NE(json.find("\t],\n\n\t\"totals\":\n\t{\n\t\t\"g\": \"\",\n\t\t\"c\": 3\n\t},\n\n"
                        "\t\"rows\": 2,"),
              std::string::npos)
        << json;
}

TEST(OutputFormat, RowFormatsLeaveTotalsOut)
{
    // A reader of JSONEachRow or RowBinary could not tell the totals from a row.
    const GroupsAndTotals result = groupsAndTotals();
    EXPECT_EQ(writtenWithTotals(OutputFormat::kJSONEachRow),
              written(result.groups, OutputFormat::kJSONEachRow));
    EXPECT_EQ(writtenWithTotals(OutputFormat::kRowBinary),
              written(result.groups, OutputFormat::kRowBinary));
    std::ostringstream out;
    EXPECT_THROW(writeTotals(result.totals, OutputFormat::kJSON, out), Exception);
}

}  // namespace
}  // namespace granary
