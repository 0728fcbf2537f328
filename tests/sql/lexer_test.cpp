#include "engine/sql/lexer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/sql/syntax_error.h"

namespace granary::sql
{
namespace
{

std::vector<TokenKind> kinds(const std::vector<Token>& tokens)
{
    std::vector<TokenKind> result;
    for (const Token& token : tokens)
    {
        result.push_back(token.kind);
    }
    return result;
}

std::string decodedString(std::string_view text)
{
    const std::vector<Token> tokens = tokenize(text);
    EXPECT_EQ(tokens.size(), 2u) << text;
    EXPECT_EQ(tokens[0].kind, TokenKind::String) << text;
    return tokens[0].decoded;
}

TEST(SqlLexer, WordsNumbersAndOperatorsWithPositions)
{
    const std::vector<Token> tokens = tokenize("SELECT a1,\n  -3.5e2 <> 'x' FROM t;");
    ASSERT_EQ(kinds(tokens),
              (std::vector<TokenKind>{TokenKind::Word, TokenKind::Word, TokenKind::Comma,
                                      TokenKind::Minus, TokenKind::Float, TokenKind::NotEquals,
                                      TokenKind::String, TokenKind::Word, TokenKind::Word,
                                      TokenKind::Semicolon, TokenKind::EndOfInput}));
    EXPECT_EQ(tokens[1].text, "a1");
    EXPECT_EQ(tokens[3].position.line, 2u);
    EXPECT_EQ(tokens[3].position.column, 3u);
    EXPECT_EQ(tokens[3].position.offset, 13u);
    EXPECT_DOUBLE_EQ(tokens[4].float_value, 350.0);
    EXPECT_EQ(tokens[6].decoded, "x");
    EXPECT_EQ(tokens.back().position.offset, 34u);
    EXPECT_EQ(tokens.back().position.column, 24u);
}

TEST(SqlLexer, AllOperators)
{
    EXPECT_EQ(
        kinds(tokenize("( ) , ; . + - * / % = == != <> < <= > >=")),
        (std::vector<TokenKind>{
            TokenKind::LeftParen, TokenKind::RightParen, TokenKind::Comma, TokenKind::Semicolon,
            TokenKind::Dot, TokenKind::Plus, TokenKind::Minus, TokenKind::Star, TokenKind::Slash,
            TokenKind::Percent, TokenKind::Equals, TokenKind::Equals, TokenKind::NotEquals,
            TokenKind::NotEquals, TokenKind::Less, TokenKind::LessOrEquals, TokenKind::Greater,
            TokenKind::GreaterOrEquals, TokenKind::EndOfInput}));
}

TEST(SqlLexer, IntegersUpToUInt64Max)
{
    const std::vector<Token> tokens = tokenize("0 435090932899640449 18446744073709551615");
    EXPECT_EQ(tokens[0].integer_value, 0u);
    EXPECT_EQ(tokens[1].integer_value, 435090932899640449u);
    EXPECT_EQ(tokens[2].integer_value, UINT64_MAX);
    EXPECT_THROW(tokenize("18446744073709551616"), SyntaxError);
}

TEST(SqlLexer, FloatForms)
{
    const std::vector<Token> tokens = tokenize("1.5 .25 2. 1e3 1E+2 7e-1");
    const std::vector<double> expected = {1.5, 0.25, 2.0, 1000.0, 100.0, 0.7};
    for (size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_EQ(tokens[i].kind, TokenKind::Float) << i;
        EXPECT_DOUBLE_EQ(tokens[i].float_value, expected[i]) << i;
    }
}

TEST(SqlLexer, CommentsAreSkipped)
{
    const std::vector<Token> tokens = tokenize("a -- to the end\n/* block\n */ b--");
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[1].text, "b");
    EXPECT_EQ(tokens[1].position.line, 3u);
    EXPECT_EQ(tokens[1].position.column, 5u);
}

TEST(SqlLexer, StringEscapesFollowClickHouse)
{
    EXPECT_EQ(decodedString(R"('it''s')"), "it's");
    EXPECT_EQ(decodedString(R"('it\'s')"), "it's");
    EXPECT_EQ(decodedString(R"('a\\b')"), "a\\b");
    EXPECT_EQ(decodedString(R"('\n\t\r\0')"), std::string("\n\t\r\0", 4));
    EXPECT_EQ(decodedString(R"('\x41\x7a')"), "Az");
    EXPECT_EQ(decodedString(R"('100\%')"), "100\\%");
    // Q29: the regex and its replacement keep their backslashes for RE2.
    EXPECT_EQ(decodedString(R"('^https?://(?:www\.)?([^/]+)/.*$')"),
              R"(^https?://(?:www\.)?([^/]+)/.*$)");
    EXPECT_EQ(decodedString(R"('\1')"), R"(\1)");
}

TEST(SqlLexer, QuotedIdentifiers)
{
    const std::vector<Token> tokens = tokenize(R"("Select" `we``ird` "a""b")");
    ASSERT_EQ(tokens.size(), 4u);
    EXPECT_EQ(tokens[0].kind, TokenKind::QuotedIdentifier);
    EXPECT_EQ(tokens[0].decoded, "Select");
    EXPECT_EQ(tokens[1].decoded, "we`ird");
    EXPECT_EQ(tokens[2].decoded, "a\"b");
}

TEST(SqlLexer, ColumnsCountCharactersNotBytes)
{
    const std::vector<Token> tokens = tokenize("'привет' x");
    EXPECT_EQ(tokens[1].position.column, 10u);
    EXPECT_EQ(tokens[1].position.offset, 15u);
}

struct LexerError
{
    std::string text;
    size_t line;
    size_t column;
    std::string reason;
};

TEST(SqlLexer, ErrorsNameTheirPosition)
{
    const std::vector<LexerError> cases = {
        {"SELECT 'abc", 1, 8, "unterminated string literal"},
        {"a /* b", 1, 3, "unterminated comment"},
        {"x\n  \"abc", 2, 3, "unterminated quoted identifier"},
        {"12ab", 1, 1, "invalid number literal '12ab'"},
        {"1e", 1, 1, "invalid number literal '1e'"},
        {"1e999", 1, 1, "out of the range of Float64"},
        {"a @ b", 1, 3, "unexpected character '@'"},
        {"a \x01", 1, 3, "unexpected character byte 0x01"},
        {"'\\xZ1'", 1, 2, "\\x takes two hexadecimal digits"},
        {"``", 1, 1, "empty quoted identifier"},
        {"'abc\\", 1, 1, "ends in a backslash"},
    };
    for (const LexerError& error : cases)
    {
        try
        {
            tokenize(error.text);
            ADD_FAILURE() << "no error for " << error.text;
        }
        catch (const SyntaxError& thrown)
        {
            EXPECT_EQ(thrown.code(), ErrorCode::kSyntaxError);
            EXPECT_EQ(thrown.position().line, error.line) << error.text;
            EXPECT_EQ(thrown.position().column, error.column) << error.text;
            EXPECT_NE(thrown.reason().find(error.reason), std::string::npos)
                << error.text << ": " << thrown.reason();
        }
    }
}

}  // namespace
}  // namespace granary::sql
