#pragma once

#include <optional>

#include "engine/columns/block.h"
#include "engine/planner/select_analysis.h"
#include "engine/planner/table_scan.h"

namespace granary
{

/// min(x) and max(x) of integer sort-key columns over a whole table, with nothing else
/// aggregated, from the parts' granule bounds instead of a scan (ClickBench Q7's
/// `MIN(EventDate), MAX(EventDate)`): the least granule minimum is the least value, as
/// DuckDB answers from its row groups' statistics. The aggregation's one row (each result
/// named as the aggregate's), or none for any other shape: WHERE, GROUP BY, ARRAY JOIN,
/// another function, an expression or a column without bounds as the argument, no rows.
std::optional<Block> aggregateFromSortKeyBounds(const AnalyzedSelect& analyzed,
                                                const TableScan& scan);

}  // namespace granary
