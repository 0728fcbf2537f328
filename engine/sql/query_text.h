#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace granary::sql
{

/// `INSERT INTO t [(columns)] FORMAT name` followed by its data in one text (an HTTP body, a
/// script): the statement and where the data starts.
struct InsertWithData
{
    std::string_view statement;
    size_t data_offset = 0;
};

/// Splits an INSERT ... FORMAT from its data. The data starts after the format name, the
/// blanks (' ', '\t', '\f') after it and one "\n" or "\r\n" (ClickHouse's rule: with no
/// newline, the data starts right after the blanks). The text past the format name is never
/// lexed, so it may be binary. nullopt for any other statement (INSERT ... FROM INFILE too).
/// Throws SyntaxError when the statement's own text does not lex.
std::optional<InsertWithData> splitInsertData(std::string_view text);

/// True when the text holds no token: only whitespace and comments.
bool isBlank(std::string_view text);

/// The first word of a statement ("SELECT", "insert"), past comments and opening
/// parentheses, as written; empty when the text has no word there (or no token at all).
/// Lexes only that far; throws SyntaxError when even that does not lex.
std::string_view leadingWord(std::string_view text);

/// A query with a trailing `FORMAT name` (SELECT ... FORMAT JSON), as the HTTP interface and
/// clients write it: the statement without the clause and the format, if one was given.
struct QueryWithFormat
{
    std::string_view statement;
    std::optional<std::string> format;
};

/// Splits off a trailing `FORMAT name` (a ';' may follow it); text without one comes back
/// whole.
QueryWithFormat splitFormatClause(std::string_view text);

}  // namespace granary::sql
