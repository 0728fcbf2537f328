#pragma once

#include "engine/sql/statement.h"

namespace granary::sql
{

/// The select item a GROUP BY or ORDER BY key stands for, as ClickHouse resolves them:
///   * an unsigned integer literal n is the n-th select item (GROUP BY 1);
///   * a bare column reference named like a select alias is that item (GROUP BY Src);
///     the alias wins over a column of the same name.
/// Returns null for any other key, which is an expression of its own. A position outside
/// 1..items throws kBadArguments naming it.
const SelectItem* referencedSelectItem(const SelectStatement& select, const Expression& key);

}  // namespace granary::sql
