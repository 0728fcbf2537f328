#pragma once

#include <functional>
#include <memory>
#include <string>

#include "engine/exec/query_condition_cache.h"
#include "engine/exec/query_context.h"
#include "engine/planner/select_executor.h"
#include "engine/planner/table_scan.h"
#include "engine/sql/statement.h"
#include "engine/storage/table.h"

namespace granary
{

/// The table FROM names (kUnknownTable when there is none).
using TableLookup = std::function<std::shared_ptr<const Table>(const std::string& name)>;

/// What every SELECT of a query shares: its tables, threads, settings and observers.
struct QueryEnvironment
{
    TableLookup tables;
    SelectSettings settings;
    ScanObserver observer;
    ScanCaches caches;  ///< The condition cache is used for table reads only.
};

/// Runs a whole SELECT statement on the context's threads: its common table expressions and
/// subqueries, each run once before the SELECT that reads it (a subquery in FROM or a CTE as
/// an in-memory table, `IN (SELECT ...)` as a hash set, a scalar subquery as a constant), the
/// SELECT itself (executeSelect, whose stages are all parallel), DISTINCT (as a GROUP BY of
/// the select list where nothing is aggregated, else over the result rows) and the
/// UNION ALL branches, whose columns meet in their common type. Rows and bytes read add up
/// over every table read.
SelectOutcome executeQuery(const sql::SelectStatement& select, QueryContext& context,
                           const QueryEnvironment& environment);

}  // namespace granary
