#pragma once

#include <string>
#include <string_view>

#include "engine/columns/block.h"
#include "tests/planner/naive_evaluator.h"

namespace granary::oracle
{

/// An empty RowTable with the columns of a CREATE TABLE statement (its text).
RowTable emptyTableFor(std::string_view create_table_sql);

/// The rows as one engine Block, columns in table order with the table's types.
Block toBlock(const RowTable& table);

/// The rows as TSV text (dates as YYYY-MM-DD, times as YYYY-MM-DD hh:mm:ss, strings
/// escaped), one line per row.
std::string toTsv(const RowTable& table);

}  // namespace granary::oracle
