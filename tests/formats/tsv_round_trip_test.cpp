// TSV written by Granary, read back by a small independent parser: every value must survive.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <sstream>

#include "engine/datagen/random.h"
#include "engine/formats/output_format.h"
#include "tests/formats/test_blocks.h"

namespace granary
{
namespace
{

std::string unescapeTsvField(std::string_view field)
{
    std::string value;
    for (size_t i = 0; i < field.size(); ++i)
    {
        if (field[i] != '\\')
        {
            value += field[i];
            continue;
        }
        const char escaped = field[++i];
        switch (escaped)
        {
            case 't':
                value += '\t';
                break;
            case 'n':
                value += '\n';
                break;
            case 'r':
                value += '\r';
                break;
            case 'b':
                value += '\b';
                break;
            case 'f':
                value += '\f';
                break;
            case '0':
                value += '\0';
                break;
            default:
                value += escaped;
        }
    }
    return value;
}

std::vector<std::vector<std::string>> parseTsv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        std::vector<std::string> fields;
        size_t start = 0;
        for (size_t tab = line.find('\t');; tab = line.find('\t', start))
        {
            fields.push_back(unescapeTsvField(std::string_view(line).substr(start, tab - start)));
            if (tab == std::string::npos)
            {
                break;
            }
            start = tab + 1;
        }
        rows.push_back(std::move(fields));
    }
    return rows;
}

TEST(TsvRoundTrip, RandomStringsIntegersAndFloatsSurvive)
{
    datagen::Random random(42);
    std::vector<std::string> strings;
    std::vector<int64_t> integers;
    std::vector<double> doubles;
    for (size_t row = 0; row < 2000; ++row)
    {
        std::string value;
        const size_t length = random.below(12);
        for (size_t i = 0; i < length; ++i)
        {
            value += static_cast<char>(random.below(256));  // Every byte, escapes included.
        }
        strings.push_back(value);
        integers.push_back(static_cast<int64_t>(random.next()));
        doubles.push_back(std::bit_cast<double>(random.next() & 0x7FEFFFFFFFFFFFFFULL) *
                          (random.chance(0.5) ? 1 : -1));
    }
    Block block;
    block.columns.push_back({"s", test::stringColumn(strings)});
    block.columns.push_back({"i", test::fixedColumn<int64_t>(TypeId::Int64, integers)});
    block.columns.push_back({"d", test::fixedColumn<double>(TypeId::Float64, doubles)});
    std::ostringstream out;
    writeBlock(block, OutputFormat::kTSV, out);
    const auto rows = parseTsv(out.str());
    ASSERT_EQ(rows.size(), strings.size());
    for (size_t row = 0; row < rows.size(); ++row)
    {
        ASSERT_EQ(rows[row].size(), 3U) << "row " << row;
        EXPECT_EQ(rows[row][0], strings[row]);
        EXPECT_EQ(std::stoll(rows[row][1]), integers[row]);
        double parsed = 0;
        std::from_chars(rows[row][2].data(), rows[row][2].data() + rows[row][2].size(), parsed);
        EXPECT_EQ(parsed, doubles[row]) << rows[row][2];
    }
}

}  // namespace
}  // namespace granary
