#pragma once

#include <string_view>
#include <vector>

namespace granary::sql
{

/// The statements of a script, cut at the semicolons between them (never at one inside a
/// string or a quoted name), each without its ';'; blank and comment-only pieces are dropped.
/// Text the lexer rejects is returned whole, so that parsing it reports the error.
std::vector<std::string_view> splitStatements(std::string_view script);

}  // namespace granary::sql
