// The scalar function registry and its string, conversion and math functions: every function
// resolves by name in any case, docs/scalar-functions.md is what the registry generates, and
// the kernels agree with per-row references over random rows and with ClickHouse's documented
// answers at the edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/expressions/function_registry.h"
#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

constexpr size_t kRows = 1500;

Block randomBlock(uint64_t seed)
{
    std::mt19937_64 random(seed);
    Block block;
    block.columns.push_back({"s", randomColumn(TypeId::String, kRows, random)});
    block.columns.push_back({"t", randomColumn(TypeId::String, kRows, random)});
    block.columns.push_back({"n", randomColumn(TypeId::Int8, kRows, random)});
    block.columns.push_back({"i", randomColumn(TypeId::Int32, kRows, random)});
    block.columns.push_back({"u", randomColumn(TypeId::UInt16, kRows, random)});
    block.columns.push_back({"f", randomColumn(TypeId::Float64, kRows, random)});
    return block;
}

/// The one value of an expression that reads no column.
Column constantOf(std::string_view text)
{
    const Block none;
    const CompiledExpression compiled = compileText(text, none);
    EXPECT_TRUE(compiled.isConstant()) << text;
    Column holder;
    const ColumnView view = compiled.evaluate(BlockView{}, 0, 1, holder);
    Column value = Column::emptyLike(view);
    value.appendRange(view, 0, 1);
    return value;
}

std::string text(std::string_view expression)
{
    return std::string(constantOf(expression).stringAt(0));
}

long double number(std::string_view expression)
{
    return numericAt(constantOf(expression), 0);
}

ErrorCode errorOf(std::string_view expression, const Block& block = {})
{
    try
    {
        evaluateText(expression, block);
    }
    catch (const Exception& error)
    {
        return error.code();
    }
    return ErrorCode::kOk;
}

TEST(ScalarFunctionRegistry, TheDocsAreWhatTheRegistryGenerates)
{
    std::ifstream file(GRANARY_SCALAR_FUNCTIONS_DOC);
    ASSERT_TRUE(file) << "cannot read " << GRANARY_SCALAR_FUNCTIONS_DOC;
    std::stringstream contents;
    contents << file.rdbuf();
    EXPECT_EQ(contents.str(), scalarFunctionReference())
        << "regenerate it: granary functions --scalar > docs/scalar-functions.md";
}

TEST(ScalarFunctionRegistry, NamesAreUniqueAndResolveInAnyCase)
{
    std::set<std::string> seen;
    for (const ScalarFunction& function : scalarFunctions())
    {
        EXPECT_TRUE(seen.insert(lowerCaseAscii(function.name)).second) << function.name;
        EXPECT_EQ(findScalarFunction(function.name), &function);
        EXPECT_EQ(findScalarFunction(lowerCaseAscii(function.name)), &function);
        EXPECT_LE(function.min_arguments, function.max_arguments) << function.name;
        EXPECT_FALSE(function.description.empty()) << function.name;
    }
    EXPECT_EQ(findScalarFunction("noSuchFunction"), nullptr);
    EXPECT_GE(scalarFunctions().size(), 60u);
}

TEST(ScalarFunctions, WrongCountsAndUnknownNamesAreErrors)
{
    EXPECT_EQ(errorOf("substring('abc')"), ErrorCode::kBadArguments);
    EXPECT_EQ(errorOf("round(1.5, 1, 2)"), ErrorCode::kBadArguments);
    EXPECT_EQ(errorOf("multiIf(1, 2)"), ErrorCode::kBadArguments);
    EXPECT_EQ(errorOf("frobnicate(1)"), ErrorCode::kUnknownFunction);
    EXPECT_EQ(errorOf("substring(1, 2)"), ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("substring('abc', 'x')"), ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("round(1.5, f)", randomBlock(1)), ErrorCode::kBadArguments);
    try
    {
        compileText("position(1, 'a')", {});
        FAIL() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_NE(std::string(error.what()).find("at line 1, column 1"), std::string::npos)
            << error.what();
    }
}

TEST(ScalarFunctions, SubstringFollowsClickHouseOffsets)
{
    EXPECT_EQ(text("substring('Hello, world', 1, 5)"), "Hello");
    EXPECT_EQ(text("substring('Hello, world', 8)"), "world");
    EXPECT_EQ(text("substring('Hello, world', -5)"), "world");
    EXPECT_EQ(text("substring('Hello, world', -5, 2)"), "wo");
    EXPECT_EQ(text("substring('Hello', 0, 3)"), "");
    EXPECT_EQ(text("substring('Hello', 10)"), "");
    EXPECT_EQ(text("substring('Hello', -10, 3)"), "Hel");
    EXPECT_EQ(text("substring('Hello', 2, -1)"), "ell");
    EXPECT_EQ(text("substr('Hello', 2, 100)"), "ello");
    EXPECT_EQ(text("substringUTF8('Привет', 2, 3)"), "рив");
    EXPECT_EQ(text("substringUTF8('Привет', -2)"), "ет");
    EXPECT_EQ(number("lengthUTF8('Привет')"), 6);
    EXPECT_EQ(number("length('Привет')"), 12);
}

TEST(ScalarFunctions, SubstringMatchesAReferenceOverRandomRows)
{
    const Block block = randomBlock(2);
    const Column got = evaluateText("substring(s, n, u % 7)", block);
    const Column& s = *block.find("s");
    const Column& n = *block.find("n");
    const Column& u = *block.find("u");
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::string value(s.stringAt(row));
        const int64_t offset = n.valueAt<int8_t>(row);
        const int64_t length = u.valueAt<uint16_t>(row) % 7;
        const auto size = static_cast<int64_t>(value.size());
        std::string expected;
        if (offset != 0)
        {
            const int64_t begin = offset > 0 ? offset - 1 : std::max<int64_t>(0, size + offset);
            if (begin < size)
            {
                expected = value.substr(begin, length);
            }
        }
        ASSERT_EQ(got.stringAt(row), expected) << "row " << row << " offset " << offset;
    }
}

TEST(ScalarFunctions, ConcatPositionAndReplace)
{
    EXPECT_EQ(text("concat('a', 1, '-', 2.5, toDate('2024-02-29'))"), "a1-2.52024-02-29");
    EXPECT_EQ(number("position('Hello, world', 'o')"), 5);
    EXPECT_EQ(number("position('Hello', 'z')"), 0);
    EXPECT_EQ(number("position('Hello', '')"), 1);
    EXPECT_EQ(number("locate('abcabc', 'ca')"), 3);
    EXPECT_EQ(text("replaceAll('a.b.c', '.', '::')"), "a::b::c");
    EXPECT_EQ(text("replaceOne('a.b.c', '.', '::')"), "a::b.c");
    EXPECT_EQ(text("replace('aaa', 'aa', 'b')"), "ba");
    EXPECT_EQ(text("replaceAll('abc', '', 'x')"), "abc");
    const Block block = randomBlock(3);
    const Column concatenated = evaluateText("concat(s, t)", block);
    const Column found = evaluateText("position(concat(s, t), t)", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::string s(block.find("s")->stringAt(row));
        const std::string t(block.find("t")->stringAt(row));
        ASSERT_EQ(concatenated.stringAt(row), s + t);
        ASSERT_EQ(found.valueAt<uint64_t>(row), (s + t).find(t) + 1);
    }
}

TEST(ScalarFunctions, SplitAndJoinStrings)
{
    EXPECT_EQ(text("arrayStringConcat(splitByChar(',', 'a,b,,c'), '|')"), "a|b||c");
    EXPECT_EQ(text("toString(splitByString('::', 'x::y::'))"), "['x','y','']");
    EXPECT_EQ(number("length(splitByString('', 'abc'))"), 3);
    EXPECT_EQ(number("length(splitByChar(' ', ''))"), 1);
    EXPECT_EQ(number("has(splitByChar(',', 'a,b'), 'b')"), 1);
    EXPECT_EQ(errorOf("splitByChar('ab', 'x')"), ErrorCode::kBadArguments);
    EXPECT_EQ(errorOf("arrayStringConcat('x')"), ErrorCode::kTypeMismatch);
    // Splitting then joining by the same byte gives the text back, row by row.
    const Block block = randomBlock(8);
    const Column joined = evaluateText("arrayStringConcat(splitByChar('a', s), 'a')", block);
    const Column pieces = evaluateText("length(splitByChar('a', s))", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::string_view s = block.find("s")->stringAt(row);
        ASSERT_EQ(joined.stringAt(row), s);
        ASSERT_EQ(pieces.valueAt<uint64_t>(row),
                  static_cast<uint64_t>(std::count(s.begin(), s.end(), 'a')) + 1);
    }
}

TEST(ScalarFunctions, CaseConversionOfUtf8Letters)
{
    EXPECT_EQ(text("upperUTF8('straße Привет é')"), "STRAßE ПРИВЕТ É");
    EXPECT_EQ(text("lowerUTF8('ÀÉÎ ΣΑΣ Ж')"), "àéî σασ ж");
    EXPECT_EQ(text("upper('straße')"), "STRAßE");
    EXPECT_EQ(text("lowerUTF8('\\xFFA\\xC3')"),
              "\xFF"
              "a\xC3");
    const Block block = randomBlock(4);
    const Column lower = evaluateText("lowerUTF8(s)", block);
    const Column ascii = evaluateText("lower(s)", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        // Random ASCII text: both agree.
        ASSERT_EQ(lower.stringAt(row), ascii.stringAt(row));
    }
}

TEST(ScalarFunctions, RoundingKeepsTheTypeAndRoundsTiesToEven)
{
    EXPECT_EQ(number("round(2.5)"), 2);
    EXPECT_EQ(number("round(3.5)"), 4);
    EXPECT_EQ(number("round(-2.5)"), -2);
    EXPECT_NEAR(static_cast<double>(number("round(3.14159, 2)")), 3.14, 1e-12);
    EXPECT_EQ(number("round(1234.5, -2)"), 1200);
    EXPECT_EQ(number("floor(-1.5)"), -2);
    EXPECT_EQ(number("ceil(-1.5)"), -1);
    EXPECT_NEAR(static_cast<double>(number("floor(2.789, 1)")), 2.7, 1e-12);
    EXPECT_NEAR(static_cast<double>(number("ceiling(2.711, 1)")), 2.8, 1e-12);
    EXPECT_EQ(constantOf("round(toUInt8(7))").type(), TypeId::UInt8);
    EXPECT_EQ(number("round(1249, -2)"), 1200);
    const Block block = randomBlock(5);
    const Column rounded = evaluateText("round(f, 1)", block);
    const Column floored = evaluateText("floor(f)", block);
    EXPECT_EQ(rounded.type(), TypeId::Float64);
    for (size_t row = 0; row < kRows; ++row)
    {
        const double f = block.find("f")->valueAt<double>(row);
        ASSERT_EQ(floored.valueAt<double>(row), std::floor(f));
        ASSERT_EQ(rounded.valueAt<double>(row), std::nearbyint(f * 10) / 10);
    }
}

TEST(ScalarFunctions, IntDivAndAbs)
{
    EXPECT_EQ(number("intDiv(7, 2)"), 3);
    EXPECT_EQ(number("intDiv(-7, 2)"), -3);
    EXPECT_EQ(number("intDiv(7.9, 2)"), 3);
    EXPECT_EQ(constantOf("intDiv(7, 2)").type(), TypeId::UInt64);
    EXPECT_EQ(constantOf("intDiv(-7, 2)").type(), TypeId::Int64);
    EXPECT_EQ(number("intDiv(-9223372036854775808, -1)"), -9223372036854775807.0L - 1);
    EXPECT_EQ(errorOf("intDiv(1, 0)"), ErrorCode::kBadArguments);
    EXPECT_EQ(number("abs(-5)"), 5);
    EXPECT_EQ(number("abs(-2.5)"), 2.5);
    EXPECT_EQ(number("abs(-9223372036854775808)"), 9223372036854775808.0L);
    EXPECT_EQ(constantOf("abs(toInt8(-128))").type(), TypeId::UInt8);
    EXPECT_EQ(number("abs(toInt8(-128))"), 128);
    const Block block = randomBlock(6);
    const Column quotients = evaluateText("intDiv(i, if(n = 0, 1, n))", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const int64_t n = block.find("n")->valueAt<int8_t>(row);
        ASSERT_EQ(quotients.valueAt<int64_t>(row),
                  block.find("i")->valueAt<int32_t>(row) / (n == 0 ? 1 : n));
    }
    EXPECT_EQ(errorOf("intDiv(i, n - n)", block), ErrorCode::kBadArguments);
}

TEST(ScalarFunctions, ConversionsParseFormatWrapAndTruncate)
{
    EXPECT_EQ(number("toUInt8(300)"), 44);
    EXPECT_EQ(number("toInt8(200)"), -56);
    EXPECT_EQ(number("toInt32(-2.9)"), -2);
    EXPECT_EQ(number("toUInt32('4000000000')"), 4000000000.0L);
    EXPECT_EQ(number("toFloat64('1.5e3')"), 1500);
    EXPECT_EQ(text("toString(42)"), "42");
    EXPECT_EQ(text("toString(toDate('2024-02-29'))"), "2024-02-29");
    EXPECT_EQ(text("toString(0.1)"), "0.1");
    EXPECT_EQ(text("CAST(12 AS String)"), "12");
    EXPECT_EQ(number("CAST('12' AS UInt8)"), 12);
    EXPECT_EQ(number("CAST('7', 'Int64')"), 7);
    EXPECT_EQ(constantOf("CAST(1 AS Int16)").type(), TypeId::Int16);
    EXPECT_EQ(text("toString(CAST('2024-03-01 12:30:00' AS DateTime))"), "2024-03-01 12:30:00");
    EXPECT_EQ(text("toString(toDate(CAST('2024-03-01 23:59:59' AS DateTime)))"), "2024-03-01");
    EXPECT_EQ(text("toString(toDateTime(toDate('2024-03-01')))"), "2024-03-01 00:00:00");
    EXPECT_EQ(errorOf("toUInt8('abc')"), ErrorCode::kCannotParseInput);
    EXPECT_EQ(errorOf("toUInt8('300')"), ErrorCode::kCannotParseInput);
    EXPECT_EQ(errorOf("CAST(1 AS Nope)"), ErrorCode::kSyntaxError);
    EXPECT_EQ(errorOf("CAST(1, 'Nope')"), ErrorCode::kUnknownType);
    const Block block = randomBlock(7);
    const Column texts = evaluateText("toString(i)", block);
    const Column back = evaluateText("toInt32(toString(i))", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const int32_t i = block.find("i")->valueAt<int32_t>(row);
        ASSERT_EQ(texts.stringAt(row), std::to_string(i));
        ASSERT_EQ(back.valueAt<int32_t>(row), i);
    }
}

}  // namespace
}  // namespace granary::testing
