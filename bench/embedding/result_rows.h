#pragma once

// Query results written as plain rows, so that Granary's and DuckDB's can be compared whatever
// types each engine picked for them (UInt64 against BIGINT counts, Int64 against HUGEINT sums).

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "granary/column_view.h"

namespace granary::bench
{

using Cell = std::variant<int64_t, double, std::string>;
using Row = std::vector<Cell>;

/// Row `row` of `column` (no NULLs: the benchmark's columns have none).
Cell cellAt(const ColumnView& column, size_t row);

/// Throws std::runtime_error, naming `what` and the first difference, unless the rows are the
/// same in some order: integers and strings exactly, floats within a relative 1e-9.
void checkSameRows(std::vector<Row> granary_rows, std::vector<Row> duckdb_rows,
                   const std::string& what);

}  // namespace granary::bench
