#pragma once

#include <string>
#include <string_view>

namespace granary
{

/// Appends `text` with TSV's backslash escapes: \t \n \r \b \f \0 \\ and \'.
void appendTsvEscaped(std::string_view text, std::string& out);
/// Appends `text` in double quotes, each " doubled.
void appendCsvQuoted(std::string_view text, std::string& out);
/// Appends `text` as a JSON string literal. Control characters use \uXXXX (or \n, \t...);
/// each byte that is not part of valid UTF-8 becomes \ufffd, so the output is always valid.
void appendJsonString(std::string_view text, std::string& out);

/// Length in bytes of the valid UTF-8 sequence starting at text[0], or 0 if it is not valid
/// (overlong forms, surrogates and code points above U+10FFFF are invalid).
size_t validUtf8SequenceLength(std::string_view text);
/// Number of code points, counting each invalid byte as one.
size_t utf8Width(std::string_view text);

}  // namespace granary
