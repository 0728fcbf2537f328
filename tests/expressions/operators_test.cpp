// Arithmetic, comparisons, logic and IN against per-row references written with plain C++.
#include <gtest/gtest.h>

#include <cmath>

#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

constexpr size_t kRows = 1500;

std::string columnName(TypeId type)
{
    return "c_" + std::string(typeName(type));
}

/// One column of every type (named c_<Type>), two String columns s and t.
Block randomBlock(uint64_t seed)
{
    std::mt19937_64 random(seed);
    Block block;
    for (const TypeId type : kFixedTypes)
    {
        block.columns.push_back({columnName(type), randomColumn(type, kRows, random)});
    }
    block.columns.push_back({"s", randomColumn(TypeId::String, kRows, random)});
    block.columns.push_back({"t", randomColumn(TypeId::String, kRows, random)});
    return block;
}

bool isPlainNumber(TypeId type)
{
    return type != TypeId::Date && type != TypeId::DateTime;
}

/// The documented type table for + - * % (and / → Float64).
TypeId expectedArithmeticType(char op, TypeId left, TypeId right)
{
    if (op == '/' || isFloat(left) || isFloat(right))
    {
        return TypeId::Float64;
    }
    return isSignedInteger(left) || isSignedInteger(right) ? TypeId::Int64 : TypeId::UInt64;
}

double doubleAt(const Column& column, size_t row)
{
    return static_cast<double>(numericAt(column, row));
}

TEST(Arithmetic, EveryPairOfNumericTypesMatchesWrappingReference)
{
    const Block block = randomBlock(1);
    for (const TypeId left : kFixedTypes)
    {
        for (const TypeId right : kFixedTypes)
        {
            if (!isPlainNumber(left) || !isPlainNumber(right))
            {
                continue;
            }
            for (const char op : {'+', '-', '*', '/'})
            {
                const std::string text = columnName(left) + " " + op + " " + columnName(right);
                SCOPED_TRACE(text);
                const Column result = evaluateText(text, block);
                ASSERT_EQ(result.type(), expectedArithmeticType(op, left, right));
                const Column& a = *block.find(columnName(left));
                const Column& b = *block.find(columnName(right));
                for (size_t row = 0; row < kRows; ++row)
                {
                    if (result.type() == TypeId::Float64)
                    {
                        const double x = doubleAt(a, row);
                        const double y = doubleAt(b, row);
                        const double expected = op == '+'   ? x + y
                                                : op == '-' ? x - y
                                                : op == '*' ? x * y
                                                            : x / y;
                        const double actual = result.valueAt<double>(row);
                        ASSERT_TRUE(actual == expected ||
                                    (std::isnan(actual) && std::isnan(expected)))
                            << row << ": " << x << op << y << " = " << actual;
                        continue;
                    }
                    const uint64_t x = bitsAt(a, row);
                    const uint64_t y = bitsAt(b, row);
                    const uint64_t expected = op == '+' ? x + y : op == '-' ? x - y : x * y;
                    ASSERT_EQ(bitsAt(result, row), expected) << row;
                }
            }
        }
    }
}

TEST(Arithmetic, ModuloIsSignedOrUnsignedByResultType)
{
    Block block;
    block.columns.push_back({"i", Column(TypeId::Int64)});
    block.columns.push_back({"u", Column(TypeId::UInt32)});
    block.columns.push_back({"d", Column(TypeId::Int16)});
    const int64_t values[] = {std::numeric_limits<int64_t>::min(), -7, -1, 0, 5, 7,
                              std::numeric_limits<int64_t>::max()};
    const int16_t divisors[] = {-1, 3, -3, 7, 1, std::numeric_limits<int16_t>::min(), 2};
    for (size_t row = 0; row < std::size(values); ++row)
    {
        block.columns[0].column.append(values[row]);
        block.columns[1].column.append(static_cast<uint32_t>(values[row] * 13 + 4000000000));
        block.columns[2].column.append(divisors[row]);
    }
    const Column signed_result = evaluateText("i % d", block);
    const Column unsigned_result = evaluateText("u % 7", block);
    ASSERT_EQ(signed_result.type(), TypeId::Int64);
    ASSERT_EQ(unsigned_result.type(), TypeId::UInt64);
    for (size_t row = 0; row < std::size(values); ++row)
    {
        const int64_t expected = divisors[row] == -1 ? 0 : values[row] % divisors[row];
        EXPECT_EQ(signed_result.valueAt<int64_t>(row), expected);
        EXPECT_EQ(unsigned_result.valueAt<uint64_t>(row),
                  block.columns[1].column.valueAt<uint32_t>(row) % 7u);
    }
}

TEST(Arithmetic, NegationAndDateShifts)
{
    const Block block = randomBlock(2);
    const Column negated = evaluateText("-c_Int64", block);
    const Column date = evaluateText("c_Date + c_Int8", block);
    const Column time = evaluateText("c_DateTime - 60", block);
    const Column days = evaluateText("c_Date - c_Date", block);
    ASSERT_EQ(negated.type(), TypeId::Int64);
    ASSERT_EQ(date.type(), TypeId::Date);
    ASSERT_EQ(time.type(), TypeId::DateTime);
    ASSERT_EQ(days.type(), TypeId::Int64);
    const Column& c_int64 = *block.find("c_Int64");
    const Column& c_date = *block.find("c_Date");
    const Column& c_int8 = *block.find("c_Int8");
    const Column& c_time = *block.find("c_DateTime");
    for (size_t row = 0; row < kRows; ++row)
    {
        EXPECT_EQ(negated.valueAt<int64_t>(row),
                  static_cast<int64_t>(0 - static_cast<uint64_t>(c_int64.valueAt<int64_t>(row))));
        EXPECT_EQ(date.valueAt<uint16_t>(row), static_cast<uint16_t>(c_date.valueAt<uint16_t>(row) +
                                                                     c_int8.valueAt<int8_t>(row)));
        EXPECT_EQ(time.valueAt<uint32_t>(row), c_time.valueAt<uint32_t>(row) - 60u);
        EXPECT_EQ(days.valueAt<int64_t>(row), 0);
    }
}

bool compareReference(const std::string& op, long double a, long double b)
{
    if (op == "=")
        return a == b;
    if (op == "!=" || op == "<>")
        return a != b;
    if (op == "<")
        return a < b;
    if (op == "<=")
        return a <= b;
    if (op == ">")
        return a > b;
    return a >= b;
}

const std::vector<std::string> kComparisons = {"=", "!=", "<>", "<", "<=", ">", ">="};

TEST(Comparison, EveryPairOfNumericColumnsComparesByValue)
{
    const Block block = randomBlock(3);
    for (const TypeId left : kFixedTypes)
    {
        for (const TypeId right : kFixedTypes)
        {
            const bool mixes_dates = (left == TypeId::Date) != (right == TypeId::Date) ||
                                     (left == TypeId::DateTime) != (right == TypeId::DateTime);
            if (mixes_dates)
            {
                continue;
            }
            const Column& a = *block.find(columnName(left));
            const Column& b = *block.find(columnName(right));
            for (const std::string& op : kComparisons)
            {
                const std::string text = columnName(left) + " " + op + " " + columnName(right);
                SCOPED_TRACE(text);
                const Column result = evaluateText(text, block);
                ASSERT_EQ(result.type(), TypeId::UInt8);
                for (size_t row = 0; row < kRows; ++row)
                {
                    ASSERT_EQ(result.valueAt<uint8_t>(row),
                              compareReference(op, numericAt(a, row), numericAt(b, row)))
                        << row << ": " << numericAt(a, row) << " vs " << numericAt(b, row);
                }
            }
        }
    }
}

TEST(Comparison, ColumnAgainstConstantIsExactOnEitherSide)
{
    const Block block = randomBlock(4);
    const std::vector<std::pair<std::string, long double>> constants = {
        {"0", 0},
        {"1", 1},
        {"-1", -1},
        {"100", 100},
        {"2.5", 2.5L},
        {"-2.5", -2.5L},
        {"255", 255},
        {"65535.5", 65535.5L},
        {"1e20", 1e20L},
        {"-1e20", -1e20L},
        {"18446744073709551615", 18446744073709551615.0L},
        {"-9223372036854775808", -9223372036854775807.0L - 1},
        {"9223372036854775807", 9223372036854775807.0L},
    };
    for (const TypeId type : kFixedTypes)
    {
        const Column& a = *block.find(columnName(type));
        for (const auto& [literal, value] : constants)
        {
            for (const std::string& op : kComparisons)
            {
                for (const bool constant_first : {false, true})
                {
                    const std::string text = constant_first
                                                 ? literal + " " + op + " " + columnName(type)
                                                 : columnName(type) + " " + op + " " + literal;
                    SCOPED_TRACE(text);
                    const Column result = evaluateText(text, block);
                    for (size_t row = 0; row < kRows; ++row)
                    {
                        long double x = numericAt(a, row);
                        // A float column meets an integer literal through Float64.
                        const long double c =
                            isFloat(type) ? static_cast<long double>(static_cast<double>(value))
                                          : value;
                        const bool expected = constant_first ? compareReference(op, c, x)
                                                             : compareReference(op, x, c);
                        ASSERT_EQ(result.valueAt<uint8_t>(row), expected) << row << ": " << x;
                    }
                }
            }
        }
    }
}

TEST(Comparison, StringsCompareBytewise)
{
    const Block block = randomBlock(5);
    const Column& s = *block.find("s");
    const Column& t = *block.find("t");
    for (const std::string& op : kComparisons)
    {
        for (const std::string& right :
             {std::string("t"), std::string("''"), std::string("'go'"), std::string("'\\xFFz'")})
        {
            const std::string text = "s " + op + " " + right;
            SCOPED_TRACE(text);
            const Column result = evaluateText(text, block);
            const std::string constant = right == "''" ? "" : right == "'go'" ? "go" : "\xFFz";
            for (size_t row = 0; row < kRows; ++row)
            {
                const std::string_view b = right == "t" ? t.stringAt(row) : constant;
                const int order = s.stringAt(row).compare(b);
                ASSERT_EQ(result.valueAt<uint8_t>(row), compareReference(op, order, 0)) << row;
            }
        }
    }
}

TEST(Comparison, DateAndDateTimeAgainstLiteralsAndEachOther)
{
    const Block block = randomBlock(6);
    const Column& date = *block.find("c_Date");
    const Column& time = *block.find("c_DateTime");
    // 2013-07-01 is day 15887; 2013-07-15 12:00:00 is 1373889600.
    const Column after = evaluateText("c_Date >= '2013-07-01'", block);
    const Column before = evaluateText("'2013-07-15 12:00:00' > c_DateTime", block);
    const Column mixed = evaluateText("c_Date < c_DateTime", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        EXPECT_EQ(after.valueAt<uint8_t>(row), date.valueAt<uint16_t>(row) >= 15887);
        EXPECT_EQ(before.valueAt<uint8_t>(row), time.valueAt<uint32_t>(row) < 1373889600u);
        EXPECT_EQ(mixed.valueAt<uint8_t>(row),
                  uint32_t(date.valueAt<uint16_t>(row) * 86400u) < time.valueAt<uint32_t>(row));
    }
}

TEST(Logic, AndOrNotOnAnyNumbers)
{
    const Block block = randomBlock(7);
    const Column result =
        evaluateText("c_Int8 AND c_UInt16 OR NOT c_Float64 AND (c_Int64 OR c_Float32)", block);
    const auto truth = [&](const char* name, size_t row)
    { return numericAt(*block.find(name), row) != 0; };
    for (size_t row = 0; row < kRows; ++row)
    {
        const bool expected =
            (truth("c_Int8", row) && truth("c_UInt16", row)) ||
            (!truth("c_Float64", row) && (truth("c_Int64", row) || truth("c_Float32", row)));
        ASSERT_EQ(result.valueAt<uint8_t>(row), expected) << row;
    }
}

TEST(InList, NumbersByValueAndStrings)
{
    const Block block = randomBlock(8);
    const std::vector<long double> list = {-1, 6, 300, 2.5L, 70000, 0, 1, 2, 3, 4, 5, 100};
    for (const TypeId type : kFixedTypes)
    {
        if (!isPlainNumber(type))
        {
            continue;
        }
        for (const bool negated : {false, true})
        {
            const std::string text = columnName(type) + (negated ? " NOT IN " : " IN ") +
                                     "(-1, 6, 300, 2.5, 70000, 0, 1, 2, 3, 4, 5, 100)";
            SCOPED_TRACE(text);
            const Column result = evaluateText(text, block);
            const Column& a = *block.find(columnName(type));
            for (size_t row = 0; row < kRows; ++row)
            {
                const long double x = numericAt(a, row);
                const bool found = std::find(list.begin(), list.end(), x) != list.end();
                ASSERT_EQ(result.valueAt<uint8_t>(row), found != negated) << row << ": " << x;
            }
        }
    }
    const Column strings = evaluateText("s IN ('', 'google', 'ab')", block);
    const Column& s = *block.find("s");
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::string_view x = s.stringAt(row);
        EXPECT_EQ(strings.valueAt<uint8_t>(row), x.empty() || x == "google" || x == "ab");
    }
    const Column dates = evaluateText("c_Date IN ('2013-07-01', 0)", block);
    const Column variable = evaluateText("c_Int32 IN (c_Int8, 7)", block);
    for (size_t row = 0; row < kRows; ++row)
    {
        const uint16_t day = block.find("c_Date")->valueAt<uint16_t>(row);
        EXPECT_EQ(dates.valueAt<uint8_t>(row), day == 15887 || day == 0);
        const int32_t x = block.find("c_Int32")->valueAt<int32_t>(row);
        EXPECT_EQ(variable.valueAt<uint8_t>(row),
                  x == block.find("c_Int8")->valueAt<int8_t>(row) || x == 7);
    }
}

TEST(Constants, FoldedAndBroadcast)
{
    const Block block = randomBlock(9);
    const CompiledExpression one = compileText("1", block);
    EXPECT_TRUE(one.isConstant());
    EXPECT_EQ(one.type(), TypeId::UInt64);
    const Column ones = evaluateAll(one, block);
    ASSERT_EQ(ones.size(), kRows);
    for (size_t row = 0; row < kRows; ++row)
    {
        ASSERT_EQ(ones.valueAt<uint64_t>(row), 1u);
    }
    const CompiledExpression folded = compileText("(2 + 3) * -4 - length('abc')", block);
    EXPECT_TRUE(folded.isConstant());
    Column holder;
    EXPECT_EQ(folded.evaluate(BlockView::of(block), 0, 1, holder).valueAt<int64_t>(0), -23);
    const CompiledExpression bare = compileText("c_Int16", block);
    EXPECT_EQ(bare.columns(), std::vector<std::string>{"c_Int16"});
    const BlockView view = BlockView::of(block);
    const ColumnView direct = bare.evaluate(view, 10, 5, holder);
    EXPECT_EQ(direct.data, static_cast<const int16_t*>(view.find("c_Int16")->data) + 10);
}

}  // namespace
}  // namespace granary::testing
