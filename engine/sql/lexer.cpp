#include "engine/sql/lexer.h"

#include <charconv>
#include <cstdio>
#include <optional>

#include "engine/sql/syntax_error.h"

namespace granary::sql
{
namespace
{

bool isIdentifierStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isIdentifierChar(char c)
{
    return isIdentifierStart(c) || isDigit(c);
}

bool isWhitespace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::optional<int> hexValue(char c)
{
    if (isDigit(c))
    {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f')
    {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F')
    {
        return c - 'A' + 10;
    }
    return std::nullopt;
}

/// ClickHouse's single-character escapes (\n, \0...); nullopt for characters it keeps
/// together with their backslash.
std::optional<char> singleCharacterEscape(char c)
{
    switch (c)
    {
        case '\\':
        case '\'':
        case '"':
        case '`':
        case '/':
        case '=':
            return c;
        case 'a':
            return '\a';
        case 'b':
            return '\b';
        case 'f':
            return '\f';
        case 'n':
            return '\n';
        case 'r':
            return '\r';
        case 't':
            return '\t';
        case 'v':
            return '\v';
        case '0':
            return '\0';
        default:
            return std::nullopt;
    }
}

/// "'@'" for printable characters, "byte 0x07" for the rest.
std::string describeCharacter(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F)
    {
        return std::string("'") + c + "'";
    }
    char hex[sizeof("byte 0xFF")];
    std::snprintf(hex, sizeof(hex), "byte 0x%02X", byte);
    return hex;
}

class Lexer
{
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    std::vector<Token> run(const TokenStop& stop = {})
    {
        std::vector<Token> tokens;
        while (skipWhitespaceAndComments())
        {
            tokens.push_back(next());
            if (stop && stop(tokens))
            {
                return tokens;
            }
        }
        Token end;
        end.position = position_;
        tokens.push_back(std::move(end));
        return tokens;
    }

private:
    bool atEnd(size_t ahead = 0) const { return position_.offset + ahead >= text_.size(); }
    /// The byte `ahead` positions on, or '\0' past the end: no check looks for a '\0', so the
    /// end never passes for something it looks for.
    char peek(size_t ahead = 0) const
    {
        return atEnd(ahead) ? '\0' : text_[position_.offset + ahead];
    }

    void advance(size_t bytes = 1)
    {
        for (size_t i = 0; i < bytes && !atEnd(); ++i)
        {
            const char c = text_[position_.offset++];
            if (c == '\n')
            {
                ++position_.line;
                position_.column = 1;
            }
            else if (!isUtf8ContinuationByte(c))
            {
                ++position_.column;
            }
        }
    }

    [[noreturn]] void fail(const SourcePosition& at, const std::string& reason) const
    {
        throw SyntaxError(text_, at, reason);
    }

    /// False at the end of the text.
    bool skipWhitespaceAndComments()
    {
        while (!atEnd())
        {
            if (isWhitespace(peek()))
            {
                advance();
            }
            else if (peek() == '-' && peek(1) == '-')
            {
                while (!atEnd() && peek() != '\n')
                {
                    advance();
                }
            }
            else if (peek() == '/' && peek(1) == '*')
            {
                const SourcePosition start = position_;
                advance(2);
                while (!(peek() == '*' && peek(1) == '/'))
                {
                    if (atEnd())
                    {
                        fail(start, "unterminated comment: '/*' has no '*/'");
                    }
                    advance();
                }
                advance(2);
            }
            else
            {
                return true;
            }
        }
        return false;
    }

    Token next()
    {
        Token token;
        token.position = position_;
        const char c = peek();
        if (isIdentifierStart(c))
        {
            while (isIdentifierChar(peek()))
            {
                advance();
            }
            token.kind = TokenKind::Word;
        }
        else if (isDigit(c) || (c == '.' && isDigit(peek(1))))
        {
            readNumber(token);
        }
        else if (c == '\'')
        {
            token.kind = TokenKind::String;
            token.decoded = readQuoted('\'', "string literal");
        }
        else if (c == '"' || c == '`')
        {
            token.kind = TokenKind::QuotedIdentifier;
            token.decoded = readQuoted(c, "quoted identifier");
            if (token.decoded.empty())
            {
                fail(token.position, "empty quoted identifier");
            }
        }
        else
        {
            token.kind = readOperator();
        }
        token.text = text_.substr(token.position.offset, position_.offset - token.position.offset);
        return token;
    }

    TokenKind readOperator()
    {
        const char c = peek();
        const char following = peek(1);
        const auto take = [this](size_t bytes, TokenKind kind)
        {
            advance(bytes);
            return kind;
        };
        switch (c)
        {
            case '(':
                return take(1, TokenKind::LeftParen);
            case ')':
                return take(1, TokenKind::RightParen);
            case '[':
                return take(1, TokenKind::LeftBracket);
            case ']':
                return take(1, TokenKind::RightBracket);
            case ',':
                return take(1, TokenKind::Comma);
            case ';':
                return take(1, TokenKind::Semicolon);
            case '.':
                return take(1, TokenKind::Dot);
            case '+':
                return take(1, TokenKind::Plus);
            case '-':
                return take(1, TokenKind::Minus);
            case '*':
                return take(1, TokenKind::Star);
            case '/':
                return take(1, TokenKind::Slash);
            case '%':
                return take(1, TokenKind::Percent);
            case '=':
                return take(following == '=' ? 2 : 1, TokenKind::Equals);
            case '!':
                if (following == '=')
                {
                    return take(2, TokenKind::NotEquals);
                }
                break;
            case '<':
                if (following == '>')
                {
                    return take(2, TokenKind::NotEquals);
                }
                return following == '=' ? take(2, TokenKind::LessOrEquals)
                                        : take(1, TokenKind::Less);
            case '>':
                return following == '=' ? take(2, TokenKind::GreaterOrEquals)
                                        : take(1, TokenKind::Greater);
            default:
                break;
        }
        fail(position_, "unexpected character " + describeCharacter(c));
    }

    void skipDigits()
    {
        while (isDigit(peek()))
        {
            advance();
        }
    }

    /// digits [. digits] [e [+-] digits], or . digits [e [+-] digits].
    void readNumber(Token& token)
    {
        const size_t begin = position_.offset;
        bool is_float = false;
        skipDigits();
        if (peek() == '.')
        {
            is_float = true;
            advance();
            skipDigits();
        }
        const bool exponent_follows =
            (peek() == 'e' || peek() == 'E') &&
            (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))));
        if (exponent_follows)
        {
            is_float = true;
            advance(2);
            skipDigits();
        }
        if (isIdentifierChar(peek()) || peek() == '.')
        {
            while (isIdentifierChar(peek()) || peek() == '.')
            {
                advance();
            }
            fail(token.position, "invalid number literal '" +
                                     std::string(text_.substr(begin, position_.offset - begin)) +
                                     "'");
        }
        const std::string_view digits = text_.substr(begin, position_.offset - begin);
        const char* const first = digits.data();
        const char* const last = digits.data() + digits.size();
        if (is_float)
        {
            token.kind = TokenKind::Float;
            const auto [end, error] = std::from_chars(first, last, token.float_value);
            if (error != std::errc() || end != last)
            {
                fail(token.position,
                     "float literal " + std::string(digits) + " is out of the range of Float64");
            }
        }
        else
        {
            token.kind = TokenKind::Integer;
            const auto [end, error] = std::from_chars(first, last, token.integer_value);
            if (error != std::errc() || end != last)
            {
                fail(token.position, "integer literal " + std::string(digits) +
                                         " is out of range: at most 18446744073709551615");
            }
        }
    }

    /// Reads a quoted string or identifier starting at its opening quote, decoding escapes.
    std::string readQuoted(char quote, std::string_view what)
    {
        const SourcePosition start = position_;
        std::string decoded;
        advance();
        while (true)
        {
            if (atEnd())
            {
                fail(start, "unterminated " + std::string(what) + ": no closing " + quote);
            }
            const char c = peek();
            if (c == quote)
            {
                advance();
                if (atEnd() || peek() != quote)
                {
                    return decoded;
                }
                decoded += quote;
                advance();
            }
            else if (c == '\\')
            {
                readEscape(decoded, start, what);
            }
            else
            {
                decoded += c;
                advance();
            }
        }
    }

    void readEscape(std::string& decoded, const SourcePosition& literal_start,
                    std::string_view what)
    {
        const SourcePosition backslash = position_;
        advance();
        if (atEnd())
        {
            fail(literal_start, "unterminated " + std::string(what) + ": it ends in a backslash");
        }
        const char c = peek();
        if (c == 'x' || c == 'X')
        {
            const std::optional<int> high = hexValue(peek(1));
            const std::optional<int> low = hexValue(peek(2));
            if (!high || !low)
            {
                fail(backslash, "invalid escape sequence: \\x takes two hexadecimal digits");
            }
            decoded += static_cast<char>(*high * 16 + *low);
            advance(3);
            return;
        }
        if (const std::optional<char> escaped = singleCharacterEscape(c))
        {
            decoded += *escaped;
        }
        else
        {
            decoded += '\\';
            decoded += c;
        }
        advance();
    }

    std::string_view text_;
    SourcePosition position_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text)
{
    return Lexer(text).run();
}

std::vector<Token> tokenizeUntil(std::string_view text, const TokenStop& stop)
{
    return Lexer(text).run(stop);
}

}  // namespace granary::sql
