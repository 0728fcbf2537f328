#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/sql/source_position.h"

namespace granary::sql
{

enum class TokenKind
{
    Word,              ///< A bare identifier or keyword: keywords are recognised by the parser.
    QuotedIdentifier,  ///< "name" or `name`: never a keyword.
    Integer,           ///< Unsigned decimal integer up to UINT64_MAX.
    Float,             ///< Decimal number with a fraction or an exponent.
    String,            ///< 'text', escapes decoded.
    LeftParen,
    RightParen,
    LeftBracket,  ///< [ of a subscript: m['key'], a[1].
    RightBracket,
    Comma,
    Semicolon,
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Equals,     ///< = or ==
    NotEquals,  ///< <> or !=
    Less,
    LessOrEquals,
    Greater,
    GreaterOrEquals,
    EndOfInput,
};

struct Token
{
    TokenKind kind = TokenKind::EndOfInput;
    /// The token as written (a view into the query text); empty for EndOfInput.
    std::string_view text;
    SourcePosition position;
    /// The decoded name or text of QuotedIdentifier and String tokens.
    std::string decoded;
    uint64_t integer_value = 0;
    double float_value = 0;
};

/// How error messages name a kind of token: "')'", "identifier", "end of input"...
std::string_view describeTokenKind(TokenKind kind);

/// How error messages name a token that was found: its text in quotes (shortened when long),
/// or "end of input".
std::string describeToken(const Token& token);

}  // namespace granary::sql
