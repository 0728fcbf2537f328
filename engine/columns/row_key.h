#pragma once

#include <cstddef>
#include <string>

#include "engine/columns/column_view.h"

namespace granary
{

/// Appends row `row` of `view` to `out` so that two rows of one type append the same bytes
/// exactly when they are equal: fixed values by their bytes, strings and nested rows prefixed
/// by their length, a NULL as a flag of its own. Rows of several columns appended one after
/// another make one key of the tuple (LIMIT BY, DISTINCT over rows, count(DISTINCT a, b)).
void appendRowKey(const ColumnView& view, size_t row, std::string& out);

}  // namespace granary
