#pragma once

// DuckDB's own values of a result chunk, written as Granary's are in tests, to compare the two.

#include <string>
#include <vector>

#include "tests/interop/duckdb_session.h"

namespace granary::interop
{

/// The rows of column `column` of `chunk`, read from DuckDB's vector and written as
/// renderRows writes Granary's: NULL as kNullText, BOOLEAN as 0 or 1, DATE as its days since
/// the epoch, timestamps as their count of their unit. Throws std::runtime_error for a type it
/// does not read.
std::vector<std::string> renderDuckDbColumn(const DuckDbArrowApi& api,
                                            const DuckDbSession::Chunk& chunk, size_t column);

}  // namespace granary::interop
