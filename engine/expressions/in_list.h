#pragma once

#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// `value [NOT] IN (constants)` as UInt8. `constants` are one-row columns: all String for a
/// String value, else numeric (date literals already converted). Numbers match by value, so
/// `Int16 IN (-1, 6)` works and a constant outside the value's type never matches.
NodePtr makeInList(NodePtr value, const std::vector<const Column*>& constants, bool negated);

/// The same over every row of `values` (a subquery's result): String for a String value, else
/// numeric. The set is built once, here; a few values are searched in place, more in a hash
/// set.
NodePtr makeInSet(NodePtr value, const Column& values, bool negated);

}  // namespace granary
