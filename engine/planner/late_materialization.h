#pragma once

#include <optional>
#include <vector>

#include "engine/planner/select_analysis.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// Late materialization (ClickHouse's lazy materialization): a top-N of a few rows without
/// aggregation whose outputs read table columns that neither WHERE nor ORDER BY reads
/// (`SELECT * ... ORDER BY t LIMIT 10`) scans the ORDER BY keys alone, and reads the other
/// columns for the rows of the result only (TableScan::fetch). Returns the scan outputs
/// that ORDER BY names, for that key scan, when the query qualifies; none otherwise.
std::optional<std::vector<ScanOutput>> lateMaterializationKeys(const AnalyzedSelect& analyzed,
                                                               const TableSchema& schema,
                                                               const AnalysisOptions& options);

}  // namespace granary
