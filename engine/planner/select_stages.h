#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/columns/block.h"
#include "engine/exec/query_context.h"
#include "engine/planner/null_aggregation.h"
#include "engine/planner/select_analysis.h"
#include "engine/planner/table_scan.h"
#include "engine/storage/table.h"

namespace granary
{

/// The stages of a SELECT over a table, for executors that run them apart: executeSelect
/// runs them in one process; a distributed query runs the scan, the aggregation's partial
/// phase and a first top-N on every rank and the rest where the rows meet.
struct SelectPlan
{
    AnalyzedSelect analyzed;
    /// The column a top-N scan skips morsels by (ORDER BY an integer sort-key column with
    /// LIMIT and no aggregation); none otherwise.
    std::optional<std::string> top_rows_sort_key;
    /// The hidden keys and counts that carry NULLs through the aggregation.
    NullAggregation nulls;
    /// Reads the rows: computes every scan output, or with late materialization the ORDER
    /// BY keys alone.
    std::unique_ptr<TableScan> scan;
    /// With late materialization (late_materialization.h), computes every scan output for the
    /// top rows the scan found (TableScan::fetch); none otherwise.
    std::unique_ptr<TableScan> row_fetcher;
    /// The aggregation's one row when part metadata answers it (metadata_aggregation.h): the
    /// scan is then not run.
    std::optional<Block> metadata_aggregate;

    size_t rowsRead() const { return scan->rowsRead(); }
    size_t bytesRead() const
    {
        return scan->bytesRead() + (row_fetcher ? row_fetcher->bytesRead() : 0);
    }
};

SelectPlan planSelect(const sql::SelectStatement& select, const Table& table,
                      const AnalysisOptions& options, const ScanObserver& observer,
                      ScanCaches caches);

/// The rows of a query without aggregation: each morsel keeps its own top-N (LIMIT + OFFSET
/// rows; without ORDER BY, the scan stops once that many are in), joined in morsel order;
/// with late materialization, the top-N of those, fetched.
Block collectRows(const SelectPlan& plan, QueryContext& context);

/// LIMIT over an aggregation, when finish would sort by result columns alone (or not at all)
/// and nothing filters before it: the aggregation may then leave out the groups that cannot
/// make the cut.
std::optional<TopGroups> topGroupsOf(const AnalyzedSelect& analyzed);

/// Names the query's GROUP BY keys and aggregates in `stats` (what --stats prints).
void recordAggregation(const AnalyzedSelect& analyzed, QueryStats& stats);

/// The rows of `stage` (aggregated or collected) that pass HAVING.
Block filterHaving(Block stage, const AnalyzedSelect& analyzed);

/// ORDER BY (stable: ties keep their order in `stage`) and LIMIT; OFFSET's rows are dropped
/// only with `apply_offset` (a partial top-N keeps them: LIMIT + OFFSET rows).
Block orderAndLimit(Block stage, const AnalyzedSelect& analyzed, bool apply_offset);

/// The select list over the final rows.
Block projectOutputs(const Block& stage, const AnalyzedSelect& analyzed);

}  // namespace granary
