#pragma once

#include <string>
#include <string_view>

namespace granary::sql
{

/// ASCII case-insensitive comparison: keywords, type names and aggregate names ignore case.
bool equalsIgnoringCase(std::string_view left, std::string_view right);
std::string lowerCaseAscii(std::string_view text);

/// Keywords that cannot be bare identifiers (column names, aliases, function names) because
/// they may follow an expression or a select item: FROM, WHERE, AS, AND, LIKE, DESC, FORMAT...
/// Any other keyword (TABLE, KEY, ENGINE...) only has its meaning where a statement expects
/// it. Reserved words can still be names when quoted: "from", `order`.
bool isReservedKeyword(std::string_view word);

}  // namespace granary::sql
