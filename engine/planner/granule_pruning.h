#pragma once

#include <vector>

#include "engine/sql/expression.h"
#include "engine/storage/part.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// Per granule of `part`: false where the granule's sort-key bounds prove that no row
/// satisfies `where`. Understood: AND chains of `key op constant` and `constant op key` with
/// op one of = < <= > >= (other conditions keep every granule).
std::vector<bool> granulesToRead(const Part& part, const TableSchema& schema,
                                 const sql::ExpressionPtr& where);

}  // namespace granary
