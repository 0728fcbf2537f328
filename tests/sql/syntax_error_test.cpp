#include "engine/sql/syntax_error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/sql/parser.h"

namespace granary::sql
{
namespace
{

/// What follows a complete SELECT item when nothing else does.
constexpr std::string_view kAfterSelectItem =
    "',', FROM, WHERE, GROUP BY, WITH TOTALS, HAVING, ORDER BY, LIMIT, OFFSET, UNION, ';' or end "
    "of input";

struct MalformedInput
{
    std::string text;
    size_t line;
    size_t column;
    std::string reason_fragment;
};

const std::vector<MalformedInput> kMalformedInputs = {
    // Empty or incomplete statements.
    {"", 1, 1,
     "expected SELECT, WITH, CREATE, INSERT, DROP, SHOW, DESCRIBE or DESC but found end of "
     "input"},
    {"   -- only a comment\n", 2, 1, "expected SELECT, WITH, CREATE"},
    {"SELEC 1", 1, 1, "but found 'SELEC'"},
    {"SELECT", 1, 7, "expected DISTINCT, '*' or expression but found end of input"},
    {"SELECT * FROM", 1, 14, "expected table name but found end of input"},
    {"SELECT * FROM WHERE x = 1", 1, 15, "expected table name but found 'WHERE'"},
    {"SELECT a, FROM t", 1, 11, "expected '*' or expression but found 'FROM'"},
    {"SELECT a AS FROM t", 1, 13, "expected alias but found 'FROM'"},
    {"SELECT a FROM t WHERE", 1, 22, "expected expression but found end of input"},
    {"SELECT a FROM t WHERE a = ", 1, 27, "expected expression but found end of input"},
    {"SELECT a FROM t WHERE a = 'x' AND", 1, 34, "expected expression but found end of input"},
    {"SELECT a FROM t GROUP a", 1, 23, "expected BY but found 'a'"},
    {"SELECT a FROM t ORDER", 1, 22, "expected BY but found end of input"},
    {"CREATE TABLE t (a Int32 NOT)", 1, 28, "expected NULL but found ')'"},
    {"SELECT a FROM t ORDER BY a DESC,", 1, 33, "expected expression but found end of input"},
    // Unbalanced parentheses.
    {"SELECT count(* FROM hits", 1, 16, "expected ')' but found 'FROM'"},
    {"SELECT (a + b FROM t", 1, 15, "expected operator or ')' but found 'FROM'"},
    {"SELECT sum(x FROM t", 1, 14, "expected operator, ',' or ')' but found 'FROM'"},
    {"SELECT a + b) FROM t", 1, 13,
     "expected operator, AS, alias, " + std::string(kAfterSelectItem) + " but found ')'"},
    {"SELECT (1)) FROM t", 1, 11, "but found ')'"},
    {"SELECT a FROM t WHERE x = 1 AND ((y = 2)", 1, 41,
     "expected operator or ')' but found end of input"},
    // Bad literals and tokens.
    {"SELECT 'abc FROM t", 1, 8, "unterminated string literal"},
    {"SELECT \"abc FROM t", 1, 8, "unterminated quoted identifier"},
    {"SELECT a FROM t /* comment", 1, 17, "unterminated comment"},
    {"SELECT 18446744073709551616", 1, 8, "integer literal 18446744073709551616 is out of range"},
    {"SELECT 12abc", 1, 8, "invalid number literal '12abc'"},
    {"SELECT 1e999", 1, 8, "out of the range of Float64"},
    {"SELECT '\\x4' FROM t", 1, 9, "\\x takes two hexadecimal digits"},
    {"SELECT a ? b", 1, 10, "unexpected character '?'"},
    {"SELECT a. FROM t", 1, 9, "but found '.'"},
    {"SELECT a.1 FROM t", 1, 9, "but found '.1'"},
    // Trailing garbage.
    {"SELECT 1 FROM t alias garbage", 1, 23, "but found 'garbage'"},
    {"SELECT * AS x FROM t", 1, 10, "expected " + std::string(kAfterSelectItem)},
    {"SELECT 1; SELECT 2", 1, 11, "expected end of input but found 'SELECT'"},
    {"SELECT a FORMAT JSON", 1, 10, "expected operator, AS, alias, ',', FROM"},
    {"SELECT a,\n       b\nFORM hits", 3, 6,
     "expected " + std::string(kAfterSelectItem) + " but found 'hits'"},
    // LIMIT and OFFSET.
    {"SELECT a FROM t LIMIT", 1, 22, "expected non-negative integer but found end of input"},
    {"SELECT a FROM t LIMIT -1", 1, 23, "expected non-negative integer but found '-'"},
    {"SELECT a FROM t LIMIT 1.5", 1, 23, "expected non-negative integer but found '1.5'"},
    {"SELECT a FROM t LIMIT x", 1, 23, "expected non-negative integer but found 'x'"},
    {"SELECT a FROM t LIMIT 10 OFFSET", 1, 32, "expected non-negative integer"},
    {"SELECT a FROM t LIMIT 5, ", 1, 26, "expected non-negative integer"},
    // Expressions.
    {"SELECT CASE WHEN a THEN b FROM t", 1, 27,
     "expected operator, WHEN, ELSE or END but found 'FROM'"},
    {"SELECT CASE a END", 1, 15, "expected operator or WHEN but found 'END'"},
    {"SELECT CASE WHEN a b END", 1, 20, "expected operator or THEN but found 'b'"},
    {"SELECT a IN 1 FROM t", 1, 13, "expected '(' but found '1'"},
    {"SELECT a IN () FROM t", 1, 14, "expected expression but found ')'"},
    {"SELECT count(DISTINCT) FROM t", 1, 22, "expected expression but found ')'"},
    {"SELECT extract(fortnight FROM t) FROM t", 1, 16, "unknown date part 'fortnight'"},
    {"SELECT a FROM t WHERE NOT", 1, 26, "expected expression but found end of input"},
    {"SELECT a NOT b FROM t", 1, 10, "but found 'NOT'"},
    // CREATE TABLE.
    {"CREATE t (a Int32)", 1, 8, "expected OR REPLACE or TABLE but found 't'"},
    {"CREATE TABLE t (a FOO)", 1, 19, "unknown data type 'FOO'"},
    {"CREATE TABLE t (a)", 1, 18, "expected data type but found ')'"},
    {"CREATE TABLE t ()", 1, 17, "expected PRIMARY KEY or column name but found ')'"},
    {"CREATE TABLE t (a Int32", 1, 24,
     "expected NOT NULL, DEFAULT, CODEC, ',' or ')' but found end of input"},
    {"CREATE TABLE t (a Int32 CODEC(ZSTD(x)))", 1, 36, "expected codec level but found 'x'"},
    {"CREATE TABLE t (a Int32 CODEC LZ4)", 1, 31, "expected '(' but found 'LZ4'"},
    {"CREATE TABLE t (a VARCHAR(0))", 1, 27, "expected positive length but found '0'"},
    {"CREATE TABLE t (a Int32, PRIMARY KEY (a)) PRIMARY KEY a", 1, 43,
     "PRIMARY KEY is given twice"},
    {"CREATE TABLE t (a Int32) ENGINE MergeTree", 1, 33, "expected '=' but found 'MergeTree'"},
    {"CREATE TABLE t (a Int32) SETTINGS x = y", 1, 39, "expected literal but found 'y'"},
    // Other statements.
    {"INSERT INTO t VALUES (1) x", 1, 26, "expected ',', ';' or end of input but found 'x'"},
    {"INSERT INTO t VALUES (1, 2", 1, 27, "expected operator, ',' or ')' but found end of input"},
    {"WITH s AS SELECT 1 SELECT 1", 1, 11, "expected '(' but found 'SELECT'"},
    {"SELECT a FROM (SELECT a FROM t", 1, 31, "but found end of input"},
    {"SELECT a FROM t UNION SELECT a FROM t", 1, 23, "expected ALL but found 'SELECT'"},
    {"SELECT a FROM t LIMIT 1 BY", 1, 27, "expected expression but found end of input"},
    {"SELECT a FROM t WHERE a BETWEEN 1 OR 2", 1, 35, "expected AND but found 'OR'"},
    {"INSERT INTO t FROM INFILE data.tsv", 1, 27, "expected string literal but found 'data'"},
    {"DROP t", 1, 6, "expected TABLE but found 't'"},
    {"SHOW", 1, 5, "expected TABLES but found end of input"},
};

TEST(SqlSyntaxErrors, EachMalformedInputNamesCodeLineColumnAndExpectation)
{
    ASSERT_GE(kMalformedInputs.size(), 30u);
    for (const MalformedInput& input : kMalformedInputs)
    {
        SCOPED_TRACE(input.text);
        try
        {
            parseStatement(input.text);
            ADD_FAILURE() << "parsed without error";
        }
        catch (const SyntaxError& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kSyntaxError);
            EXPECT_EQ(error.position().line, input.line);
            EXPECT_EQ(error.position().column, input.column);
            EXPECT_NE(error.reason().find(input.reason_fragment), std::string::npos)
                << error.reason();
            const std::string header = "Syntax error at line " + std::to_string(input.line) +
                                       ", column " + std::to_string(input.column) + ": ";
            EXPECT_EQ(std::string(error.what()).rfind(header, 0), 0u) << error.what();
        }
    }
}

TEST(SqlSyntaxErrors, MessageShowsTheLineWithACaret)
{
    try
    {
        parseStatement("SELECT a FORM hits");
        FAIL() << "parsed without error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kSyntaxError);
        EXPECT_EQ(std::string(error.what()), "Syntax error at line 1, column 15: expected " +
                                                 std::string(kAfterSelectItem) +
                                                 " but found 'hits'\n"
                                                 "SELECT a FORM hits\n"
                                                 "              ^");
    }
}

TEST(SqlSyntaxErrors, CaretFollowsTabsAndLongLinesAreCut)
{
    try
    {
        parseStatement("SELECT\ta,\n\tb\t)");
        FAIL() << "parsed without error";
    }
    catch (const SyntaxError& error)
    {
        EXPECT_EQ(error.position().line, 2u);
        EXPECT_EQ(error.position().column, 4u);
        const std::string message = error.what();
        EXPECT_EQ(message.substr(message.find('\n')), "\n\tb\t)\n\t \t^");
    }

    std::string long_line = "SELECT ";
    for (int i = 0; i < 100; ++i)
    {
        long_line += "sum(x + " + std::to_string(i) + "), ";
    }
    long_line += ") FROM t";
    try
    {
        parseStatement(long_line);
        FAIL() << "parsed without error";
    }
    catch (const SyntaxError& error)
    {
        const std::string message = error.what();
        const std::string excerpt = message.substr(message.find('\n') + 1);
        const std::string shown = excerpt.substr(0, excerpt.find('\n'));
        const std::string caret = excerpt.substr(excerpt.find('\n') + 1);
        EXPECT_EQ(shown.rfind("...", 0), 0u);
        EXPECT_LT(shown.size(), 130u);
        EXPECT_EQ(shown[caret.size() - 1], ')');
    }
}

TEST(SqlSyntaxErrors, ParseSelectRejectsOtherStatements)
{
    EXPECT_THROW(parseSelect("SHOW TABLES"), SyntaxError);
    EXPECT_THROW(parseExpression("a b"), SyntaxError);
}

}  // namespace
}  // namespace granary::sql
