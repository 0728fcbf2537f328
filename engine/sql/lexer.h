#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "engine/sql/token.h"

namespace granary::sql
{

/// Splits query text into tokens, the last one EndOfInput. Skips whitespace, `-- line` and
/// `/* block */` comments (not nested). Keywords are not distinguished from identifiers here.
///
/// String literals take '' for a quote and ClickHouse's backslash escapes: \\ \' \" \` \/ \=
/// stand for the character, \a \b \f \n \r \t \v \0 for the control byte, \xHH for the byte
/// HH; any other backslash pair is kept as written, so regular expressions such as
/// '(?:www\.)?' and replacements such as '\1' reach the regex library unchanged. Quoted
/// identifiers ("x", `x`) decode the same way, their quote doubled for itself.
///
/// Throws SyntaxError on an unterminated string, identifier or comment, an integer above
/// UINT64_MAX, a float outside double's range, a number run into letters (`12ab`), a bad \x
/// escape, an empty quoted identifier, or a character no token starts with.
std::vector<Token> tokenize(std::string_view text);

/// Called with the tokens so far after each one; true stops the lexer there.
using TokenStop = std::function<bool(const std::vector<Token>&)>;
/// Tokenizes until `stop` says so, never looking at the text past that token (which may be
/// binary data, as after `INSERT ... FORMAT RowBinary`); ends with EndOfInput only when the
/// text ran out first.
std::vector<Token> tokenizeUntil(std::string_view text, const TokenStop& stop);

}  // namespace granary::sql
