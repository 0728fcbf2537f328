#include "engine/sql/query_text.h"

#include <vector>

#include "engine/common/ascii.h"
#include "engine/sql/lexer.h"

namespace granary::sql
{
namespace
{

bool isWord(const Token& token, std::string_view word)
{
    return token.kind == TokenKind::Word && equalsIgnoringCase(token.text, word);
}

bool isName(const Token& token)
{
    return token.kind == TokenKind::Word || token.kind == TokenKind::QuotedIdentifier;
}

/// Past the blanks and the one line break that separate a format name from its data.
size_t skipDataDelimiter(std::string_view text, size_t offset)
{
    while (offset < text.size() &&
           (text[offset] == ' ' || text[offset] == '\t' || text[offset] == '\f'))
    {
        ++offset;
    }
    if (text.substr(offset, 2) == "\r\n")
    {
        return offset + 2;
    }
    if (offset < text.size() && text[offset] == '\n')
    {
        return offset + 1;
    }
    return offset;
}

}  // namespace

std::optional<InsertWithData> splitInsertData(std::string_view text)
{
    // Stops on the first token that is not INSERT, on FROM (INFILE), and after FORMAT's name.
    const std::vector<Token> tokens =
        tokenizeUntil(text,
                      [](const std::vector<Token>& so_far)
                      {
                          const Token& last = so_far.back();
                          if (so_far.size() == 1)
                          {
                              return !isWord(last, "INSERT");
                          }
                          if (isWord(last, "FROM"))
                          {
                              return true;
                          }
                          return so_far.size() >= 3 &&
                                 isWord(so_far[so_far.size() - 2], "FORMAT") && isName(last);
                      });
    if (tokens.size() < 3 || !isWord(tokens.front(), "INSERT") ||
        !isWord(tokens[tokens.size() - 2], "FORMAT") || !isName(tokens.back()))
    {
        return std::nullopt;
    }
    const Token& format_name = tokens.back();
    const size_t name_end = format_name.position.offset + format_name.text.size();
    return InsertWithData{text.substr(0, name_end), skipDataDelimiter(text, name_end)};
}

bool isBlank(std::string_view text)
{
    return tokenizeUntil(text, [](const std::vector<Token>&) { return true; }).back().kind ==
           TokenKind::EndOfInput;
}

std::string_view leadingWord(std::string_view text)
{
    const std::vector<Token> tokens =
        tokenizeUntil(text, [](const std::vector<Token>& so_far)
                      { return so_far.back().kind != TokenKind::LeftParen; });
    const Token& last = tokens.back();
    return last.kind == TokenKind::Word ? last.text : std::string_view();
}

QueryWithFormat splitFormatClause(std::string_view text)
{
    std::vector<Token> tokens = tokenize(text);
    tokens.pop_back();  // EndOfInput
    while (!tokens.empty() && tokens.back().kind == TokenKind::Semicolon)
    {
        tokens.pop_back();
    }
    if (tokens.size() < 3 || !isWord(tokens[tokens.size() - 2], "FORMAT") ||
        !isName(tokens.back()) || isWord(tokens.front(), "INSERT"))
    {
        return {text, std::nullopt};
    }
    const Token& format_name = tokens.back();
    std::string format = format_name.kind == TokenKind::QuotedIdentifier
                             ? format_name.decoded
                             : std::string(format_name.text);
    return {text.substr(0, tokens[tokens.size() - 2].position.offset), std::move(format)};
}

}  // namespace granary::sql
