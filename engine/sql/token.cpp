#include "engine/sql/token.h"

namespace granary::sql
{
namespace
{

/// Long tokens (a 3,000-character string literal) are cut in messages after this many bytes.
constexpr size_t kMaxQuotedTokenBytes = 40;

}  // namespace

std::string_view describeTokenKind(TokenKind kind)
{
    switch (kind)
    {
        case TokenKind::Word:
            return "identifier";
        case TokenKind::QuotedIdentifier:
            return "quoted identifier";
        case TokenKind::Integer:
            return "integer";
        case TokenKind::Float:
            return "number";
        case TokenKind::String:
            return "string literal";
        case TokenKind::LeftParen:
            return "'('";
        case TokenKind::RightParen:
            return "')'";
        case TokenKind::LeftBracket:
            return "'['";
        case TokenKind::RightBracket:
            return "']'";
        case TokenKind::Comma:
            return "','";
        case TokenKind::Semicolon:
            return "';'";
        case TokenKind::Dot:
            return "'.'";
        case TokenKind::Plus:
            return "'+'";
        case TokenKind::Minus:
            return "'-'";
        case TokenKind::Star:
            return "'*'";
        case TokenKind::Slash:
            return "'/'";
        case TokenKind::Percent:
            return "'%'";
        case TokenKind::Equals:
            return "'='";
        case TokenKind::NotEquals:
            return "'<>'";
        case TokenKind::Less:
            return "'<'";
        case TokenKind::LessOrEquals:
            return "'<='";
        case TokenKind::Greater:
            return "'>'";
        case TokenKind::GreaterOrEquals:
            return "'>='";
        case TokenKind::EndOfInput:
            return "end of input";
    }
    __builtin_unreachable();
}

std::string describeToken(const Token& token)
{
    if (token.kind == TokenKind::EndOfInput)
    {
        return "end of input";
    }
    if (token.text.size() <= kMaxQuotedTokenBytes)
    {
        return '\'' + std::string(token.text) + '\'';
    }
    return '\'' + std::string(token.text.substr(0, kMaxQuotedTokenBytes)) + "...'";
}

}  // namespace granary::sql
