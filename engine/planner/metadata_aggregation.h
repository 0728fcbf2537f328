#pragma once

#include <optional>

#include "engine/columns/block.h"
#include "engine/planner/select_analysis.h"
#include "engine/planner/table_scan.h"

namespace granary
{

/// An aggregation over a whole table with nothing but these aggregates, answered from part
/// metadata instead of a scan, as DuckDB answers from its row groups' statistics:
/// `count(*)` is the rows the scan would read (ClickBench Q1), `min(x)` / `max(x)` of an
/// integer sort-key column the least granule minimum / greatest granule maximum (Q7's
/// `MIN(EventDate), MAX(EventDate)`). The aggregation's one row (each result named as the
/// aggregate's), or none for any other shape: a WHERE that the granule bounds do not prove
/// true for every row read (TableScan::whereHoldsForEveryRow), GROUP BY, ARRAY JOIN, another
/// function, an expression or a column without bounds as the argument, min / max over no rows.
std::optional<Block> aggregateFromMetadata(const AnalyzedSelect& analyzed, const TableScan& scan,
                                           const MetadataAggregation& allowed);

}  // namespace granary
