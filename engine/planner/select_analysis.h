#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/aggregation/aggregator.h"
#include "engine/sql/statement.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// An expression the scan computes for every row that passes the filter, and the name of the
/// column it fills (a table column's own name for a bare reference, which costs no copy).
struct ScanOutput
{
    std::string name;
    sql::ExpressionPtr expression;
};

/// A SELECT split into the stages of the architecture: scan (filter, computed columns) →
/// aggregation (keys, aggregates) → final projection over the aggregated (or scanned) rows →
/// HAVING → ORDER BY / LIMIT. Final-stage expressions refer to stage columns by name only.
struct AnalyzedSelect
{
    sql::ExpressionPtr where;  ///< Null: every row.
    /// ARRAY JOIN, or arrayJoin(x) (whose calls then read the element, named by the call's
    /// text): between WHERE and the scan outputs.
    std::optional<sql::ArrayJoinClause> array_join;
    std::vector<ScanOutput> scan_outputs;

    bool aggregates = false;  ///< GROUP BY or aggregate calls: the aggregation stage runs.
    std::vector<std::string> group_keys;  ///< Scan output names.
    std::vector<AggregateDescription> aggregate_functions;

    std::vector<std::string> output_names;
    std::vector<sql::ExpressionPtr> outputs;
    sql::ExpressionPtr having;
    std::vector<sql::ExpressionPtr> order_keys;
    std::vector<bool> descending;
    std::vector<bool> nulls_first;
    /// LIMIT n BY keys, the keys as final-stage expressions: applied after ORDER BY and before
    /// LIMIT, so that no stage may cut rows by LIMIT early.
    std::optional<sql::LimitBy> limit_by;
    std::optional<uint64_t> limit;
    uint64_t offset = 0;
};

/// Which aggregates part metadata may answer (metadata_aggregation.h).
struct MetadataAggregation
{
    /// min(x) / max(x) of integer sort-key columns from the parts' granule bounds.
    bool min_max_from_sort_key_bounds = true;
    /// count(*) from the parts' row counts.
    bool count_from_part_rows = true;
};

struct AnalysisOptions
{
    /// sum(x ± k) → sum(x) ± k * count(x) for integer columns x (engine/sql/rewrites.h).
    bool rewrite_sum_of_column_and_constant = true;
    /// GROUP BY keys left out of the grouping and computed from the others after it: constants
    /// (`GROUP BY 1, URL` with `SELECT 1, URL`), and expressions of other keys only
    /// (`ClientIP - 1` beside `ClientIP`). Settings optimize_group_by_constant_keys and
    /// optimize_group_by_function_keys.
    bool eliminate_constant_group_keys = true;
    bool eliminate_group_keys_of_keys = true;
    /// Without GROUP BY, one condition shared by every aggregate (FILTER or -If) moves to
    /// WHERE (aggregate_filter_to_where.h). Setting optimize_aggregate_filters_to_where.
    bool aggregate_filters_to_where = true;
    /// Late materialization (late_materialization.h), for LIMIT + OFFSET up to the bound (0:
    /// any). Settings query_plan_optimize_lazy_materialization and
    /// query_plan_max_limit_for_lazy_materialization, as ClickHouse names them.
    bool late_materialization = true;
    /// Reading a row's other columns costs a granule's decoding per column: past some
    /// hundred rows, reading them with the scan's passing rows costs less.
    uint64_t late_materialization_max_rows = 100;
    /// Aggregates over a whole table from part metadata (metadata_aggregation.h): settings
    /// optimize_min_max_from_sort_key_bounds and optimize_trivial_count_query (ClickHouse's
    /// name for count(*) from the parts' row counts).
    MetadataAggregation metadata_aggregation;
};

/// The name of a select item's result column: its alias, a bare column's name, else the
/// expression's canonical text.
std::string outputNameOf(const sql::SelectItem& item);

/// Resolves positions and aliases, expands `*`, collects the distinct aggregates and checks
/// that every selected column is aggregated or grouped by (kNotAnAggregate naming it).
AnalyzedSelect analyzeSelect(const sql::SelectStatement& select, const TableSchema& schema,
                             const AnalysisOptions& options = {});

}  // namespace granary
