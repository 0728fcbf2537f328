// Where an INSERT's data starts in a text, by ClickHouse's delimiter rule, and trailing
// FORMAT clauses of queries.
#include "engine/sql/query_text.h"

#include <gtest/gtest.h>

#include "engine/sql/syntax_error.h"

namespace granary::sql
{
namespace
{

std::string dataOf(std::string_view text)
{
    const std::optional<InsertWithData> split = splitInsertData(text);
    EXPECT_TRUE(split.has_value()) << text;
    return split ? std::string(text.substr(split->data_offset)) : "";
}

TEST(SplitInsertData, OneNewlineAfterTheFormatNameIsTheDelimiter)
{
    EXPECT_EQ(dataOf("INSERT INTO t FORMAT RowBinary\n\x0a\x01"), "\x0a\x01");
    EXPECT_EQ(dataOf("INSERT INTO t FORMAT RowBinary  \r\n\x0a"), "\x0a");
    EXPECT_EQ(dataOf("INSERT INTO t FORMAT RowBinary \t\f\nabc"), "abc");
    // Without a newline the data starts after the blanks: a leading 0x0a data byte is eaten
    // as the delimiter, as ClickHouse does.
    EXPECT_EQ(dataOf("INSERT INTO t FORMAT RowBinary\x0a\x0a"), "\x0a");
    EXPECT_EQ(dataOf("INSERT INTO t FORMAT TSV"), "");
    EXPECT_EQ(dataOf("insert into t (a, `b c`) format JSONEachRow\n{}"), "{}");
}

TEST(SplitInsertData, TheStatementEndsAtTheFormatName)
{
    const std::string text = "INSERT INTO t (a, b) FORMAT RowBinary\n\xff\xfe'\"";
    const std::optional<InsertWithData> split = splitInsertData(text);
    ASSERT_TRUE(split);
    EXPECT_EQ(split->statement, "INSERT INTO t (a, b) FORMAT RowBinary");
}

TEST(SplitInsertData, OtherStatementsAreNotSplit)
{
    EXPECT_FALSE(splitInsertData("SELECT 1 FORMAT TSV"));
    EXPECT_FALSE(splitInsertData("INSERT INTO t FROM INFILE 'x' FORMAT TSV"));
    EXPECT_FALSE(splitInsertData(""));
    EXPECT_FALSE(splitInsertData("INSERT INTO t VALUES"));
}

TEST(SplitFormatClause, TrailingFormatIsSplitOff)
{
    QueryWithFormat split = splitFormatClause("SELECT a FROM t \nFORMAT JSON");
    EXPECT_EQ(split.statement, "SELECT a FROM t \n");
    EXPECT_EQ(split.format, "JSON");
    split = splitFormatClause("SELECT 1 FORMAT `TabSeparated`;");
    EXPECT_EQ(split.format, "TabSeparated");
    split = splitFormatClause("SELECT format FROM t");
    EXPECT_FALSE(split.format);
    EXPECT_EQ(split.statement, "SELECT format FROM t");
}

TEST(LeadingWord, PastCommentsAndParentheses)
{
    EXPECT_EQ(leadingWord("  -- note\n/* x */ select 1"), "select");
    EXPECT_EQ(leadingWord("((SELECT 1))"), "SELECT");
    EXPECT_EQ(leadingWord("INSERT INTO t FORMAT RowBinary\n\xff\xfe'"), "INSERT");
    EXPECT_EQ(leadingWord("1 + 1"), "");
    EXPECT_EQ(leadingWord(""), "");
    EXPECT_TRUE(isBlank(" -- only a comment\n"));
    EXPECT_FALSE(isBlank("1"));
}

TEST(SplitFormatClause, UnlexableTextIsASyntaxError)
{
    EXPECT_THROW(splitFormatClause("SELECT 'unterminated"), SyntaxError);
}

}  // namespace
}  // namespace granary::sql
