#pragma once

#include <string_view>

#include "engine/common/ascii.h"

namespace granary::sql
{

/// Keywords that cannot be bare identifiers (column names, aliases, function names) because
/// they may follow an expression or a select item: FROM, WHERE, AS, AND, LIKE, DESC, FORMAT...
/// Any other keyword (TABLE, KEY, ENGINE...) only has its meaning where a statement expects
/// it. Reserved words can still be names when quoted: "from", `order`.
bool isReservedKeyword(std::string_view word);

}  // namespace granary::sql
