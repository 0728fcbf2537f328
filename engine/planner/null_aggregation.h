#pragma once

#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/planner/select_analysis.h"
#include "engine/storage/table.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// NULLs through the aggregation core, which groups and aggregates values only. A Nullable key
/// k is grouped with a hidden key isNull(k) beside it (its NULL rows hold the type's default),
/// so NULL is a group of its own; an aggregate over Nullable arguments gets a mask
/// isNotNull(a) AND ... (the core's MaskedAggregateFunction skips the other rows, and a group
/// left without values answers NULL where the function has no empty value, as ClickHouse
/// does). restoreNulls puts the NULL keys back into the aggregated rows.
struct NullAggregation
{
    struct Key
    {
        std::string key;
        std::string flag;  ///< The hidden isNull(key) key.
    };
    std::vector<Key> keys;
    /// Keys that are Nullable but hold no NULL here: grouped as values, typed Nullable after.
    std::vector<std::string> nullable_keys;
    /// Whether an aggregate is masked to its known arguments.
    bool masked_aggregates = false;
    /// Aggregates over Nullable columns that hold no NULL here (not masked), which answer
    /// NULL over no value: typed Nullable after the aggregation, and, without keys, NULL when
    /// the hidden count `rows_counted` of the rows is 0, as masked ones would be.
    std::vector<std::string> nullable_results;
    std::string rows_counted;

    bool empty() const { return keys.empty() && !masked_aggregates; }
};

/// Adds the hidden keys and masks to `analyzed` (an aggregating SELECT over `schema`) for the
/// keys and arguments that read a column of `columns_with_nulls` (those with a NULL in some
/// part of the query's snapshot: a Nullable column without NULLs costs nothing). Nothing for
/// a query without such keys or arguments, which then runs as before.
NullAggregation lowerNullAggregation(AnalyzedSelect& analyzed, const TableSchema& schema,
                                     const std::vector<std::string>& columns_with_nulls);

/// The columns of `schema` that hold a NULL in some part of `snapshot`.
std::vector<std::string> columnsWithNulls(const TableSnapshot& snapshot, const TableSchema& schema);

/// Marks the NULL keys in `stage` (the aggregator's output), Nullable-typed, and removes the
/// hidden keys.
void restoreNulls(const NullAggregation& lowering, Block& stage);

/// restoreNulls' part for aggregates (run by it): types the results that may be NULL
/// Nullable, marks them NULL in the one row of a keyless `stage` over no row (`no_rows`, or
/// the hidden count says so: WITH TOTALS over no group) and removes the hidden count.
void restoreNullResults(const NullAggregation& lowering, Block& stage, bool no_rows);

}  // namespace granary
