#pragma once

#include <vector>

#include "engine/columns/block.h"
#include "engine/sql/statement.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// The rows of `INSERT INTO t [(columns)] SELECT ...` as the insert takes blocks: the SELECT's
/// result (`rows`) matched to the listed columns (all of `schema`'s without a list) by
/// position, as ClickHouse matches them, each converted to its column's type as CAST converts
/// (an AggregateFunction column takes states of its very type). Throws kBadArguments naming
/// both counts when they differ, kTypeMismatch for states of another type or a conversion
/// that does not exist, kCannotParseInput naming the row and column for a NULL bound for a
/// column that is not Nullable.
std::vector<Block> rowsToInsert(Block rows, const TableSchema& schema,
                                const sql::InsertStatement& insert);

}  // namespace granary
