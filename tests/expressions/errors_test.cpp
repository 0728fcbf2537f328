// Every compile error carries its code and a message naming the culprit.
#include <gtest/gtest.h>

#include "engine/common/exception.h"
#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

Block schemaBlock()
{
    Block block;
    block.columns.push_back({"AdvEngineID", Column(TypeId::Int16)});
    block.columns.push_back({"URL", Column(TypeId::String)});
    block.columns.push_back({"EventDate", Column(TypeId::Date)});
    block.columns.push_back({"EventTime", Column(TypeId::DateTime)});
    block.columns.push_back({"Width", Column(TypeId::UInt32)});
    return block;
}

struct ErrorCase
{
    std::string sql;
    ErrorCode code;
    std::vector<std::string> fragments;
};

class CompileErrors : public ::testing::TestWithParam<ErrorCase>
{
};

TEST_P(CompileErrors, NameTheCulprit)
{
    const ErrorCase& error = GetParam();
    const Block block = schemaBlock();
    try
    {
        compileText(error.sql, block);
        FAIL() << "compiled: " << error.sql;
    }
    catch (const Exception& exception)
    {
        EXPECT_EQ(exception.code(), error.code) << exception.what();
        for (const std::string& fragment : error.fragments)
        {
            EXPECT_NE(std::string(exception.what()).find(fragment), std::string::npos)
                << "'" << fragment << "' missing from: " << exception.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Expressions, CompileErrors,
    ::testing::Values(
        ErrorCase{
            "AdvEngineID +\n  Nope", ErrorCode::kUnknownColumn, {"'Nope'", "line 2, column 3"}},
        ErrorCase{
            "frobnicate(URL)", ErrorCode::kUnknownFunction, {"frobnicate", "line 1, column 1"}},
        ErrorCase{"1 + sum(Width)",
                  ErrorCode::kUnknownFunction,
                  {"sum(Width)", "not allowed here", "column 5"}},
        ErrorCase{
            "AdvEngineID LIKE '%x%'", ErrorCode::kTypeMismatch, {"LIKE", "`AdvEngineID`", "Int16"}},
        ErrorCase{"URL = 1", ErrorCode::kTypeMismatch, {"`URL`", "String", "UInt64"}},
        ErrorCase{"EventDate >= '2013-13-01'",
                  ErrorCode::kTypeMismatch,
                  {"'2013-13-01'", "Date", "column 14"}},
        ErrorCase{"EventTime < '2013-07-01 25:00:00'",
                  ErrorCode::kTypeMismatch,
                  {"'2013-07-01 25:00:00'", "DateTime"}},
        ErrorCase{"length(URL, URL)", ErrorCode::kBadArguments, {"length", "1 argument", "got 2"}},
        ErrorCase{"REGEXP_REPLACE(URL, '(unclosed', '')",
                  ErrorCode::kBadArguments,
                  {"(unclosed", "missing )"}},
        ErrorCase{"replaceRegexpOne(URL, '(a)', '\\2')",
                  ErrorCode::kBadArguments,
                  {"\\2", "1 capture groups"}},
        ErrorCase{"Width % (3 - 3)", ErrorCode::kBadArguments, {"Division by zero", "Width %"}},
        ErrorCase{"URL LIKE URL", ErrorCode::kBadArguments, {"pattern", "constant String"}},
        ErrorCase{"length(Width)", ErrorCode::kTypeMismatch, {"length", "`Width`", "UInt32"}},
        ErrorCase{"toHour(EventDate)", ErrorCode::kTypeMismatch, {"toHour", "Date"}},
        ErrorCase{"DATE_TRUNC('fortnight', EventTime)", ErrorCode::kBadArguments, {"fortnight"}},
        ErrorCase{"URL + 1", ErrorCode::kTypeMismatch, {"+", "`URL`", "String"}},
        ErrorCase{"NOT URL", ErrorCode::kTypeMismatch, {"NOT", "`URL`"}},
        ErrorCase{"if(Width > 1, URL, Width)",
                  ErrorCode::kTypeMismatch,
                  {"no common type", "String", "UInt32"}},
        ErrorCase{"EventDate * 2", ErrorCode::kTypeMismatch, {"*", "Date"}},
        ErrorCase{"if(Width, 1)", ErrorCode::kBadArguments, {"if", "3 arguments"}}));

TEST(RuntimeErrors, IntegerDivisionByZeroInDataThrows)
{
    Block block;
    block.columns.push_back({"a", Column(TypeId::Int32)});
    block.columns.push_back({"b", Column(TypeId::Int32)});
    for (int32_t value : {5, 0, 3})
    {
        block.columns[0].column.append(value);
        block.columns[1].column.append(value);
    }
    const CompiledExpression modulo = compileText("a % b", block);
    Column holder;
    try
    {
        modulo.evaluate(BlockView::of(block), 0, 3, holder);
        FAIL() << "no error";
    }
    catch (const Exception& exception)
    {
        EXPECT_EQ(exception.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(exception.what()).find("Division by zero in `a % b`"),
                  std::string::npos);
    }
    // Float division by zero is IEEE: no error.
    EXPECT_TRUE(std::isinf(compileText("a / (b - b)", block)
                               .evaluate(BlockView::of(block), 0, 1, holder)
                               .valueAt<double>(0)));
}

TEST(RuntimeErrors, MissingColumnInBlock)
{
    const Block block = schemaBlock();
    const CompiledExpression expression = compileText("Width + 1", block);
    Block other;
    other.columns.push_back({"URL", Column(TypeId::String)});
    Column holder;
    try
    {
        expression.evaluate(BlockView::of(other), 0, 0, holder);
        FAIL() << "no error";
    }
    catch (const Exception& exception)
    {
        EXPECT_EQ(exception.code(), ErrorCode::kUnknownColumn);
        EXPECT_NE(std::string(exception.what()).find("'Width'"), std::string::npos);
    }
}

}  // namespace
}  // namespace granary::testing
