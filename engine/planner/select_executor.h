#pragma once

#include <cstddef>
#include <optional>

#include "engine/aggregation/aggregation_settings.h"
#include "engine/columns/block.h"
#include "engine/exec/query_context.h"
#include "engine/planner/table_scan.h"
#include "engine/sql/statement.h"
#include "engine/storage/table.h"

namespace granary
{

struct SelectSettings
{
    AnalysisOptions analysis;
    AggregationSettings aggregation;
};

struct SelectOutcome
{
    Block block;
    /// WITH TOTALS over an aggregation: one row, the result's columns, keys at their default
    /// and the aggregates over every group HAVING kept (LIMIT aside).
    std::optional<Block> totals;
    size_t rows_read = 0;
    size_t bytes_read = 0;
    size_t granules_skipped = 0;
};

/// Runs a SELECT over one table on the query's threads: scan → filter → partial aggregation →
/// parallel merge → finalize (aggregator.h) → HAVING → ORDER BY with a top-N → LIMIT/OFFSET →
/// the select list. Without aggregation, each morsel keeps only its own top-N rows.
SelectOutcome executeSelect(const sql::SelectStatement& select, const Table& table,
                            QueryContext& context, const SelectSettings& settings,
                            const ScanObserver& observer = {}, ScanCaches caches = {});

/// A SELECT without FROM: its items are constants, evaluated once (`SELECT 1`).
Block executeSelectWithoutTable(const sql::SelectStatement& select);

}  // namespace granary
