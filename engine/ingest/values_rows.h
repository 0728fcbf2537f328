#pragma once

#include <cstddef>
#include <string>

#include "engine/sql/statement.h"

namespace granary::ingest
{

/// The rows of `INSERT ... VALUES (row), ...` as TSV text, one line per row, which the TSV
/// loader then parses into the columns' types (so VALUES and TSV accept the same values and
/// report the same errors). Each value is a constant expression (`-1`, `'a'`, `1 + 2`,
/// `toDate('2024-01-02')`); a row of another length than `columns`, or a value that reads a
/// column, is kBadArguments naming the row and the value's position.
std::string valuesAsTsv(const sql::InsertStatement& insert, size_t columns);

}  // namespace granary::ingest
