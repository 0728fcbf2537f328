#pragma once

#include <optional>
#include <vector>

#include "engine/sql/statement.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// A ROLLUP, CUBE or GROUPING SETS query as plain GROUP BY queries over the same source, one
/// per set, whose rows are unioned, then ordered and limited by `finish` (which reads the
/// union, its columns named as the query's): the way ClickHouse's results come out, computed
/// as one aggregation per set.
struct GroupingSetsPlan
{
    /// Each set's query: GROUP BY the set's keys; every other key, outside aggregate
    /// arguments, is its type's default (0, '', 1970-01-01, as ClickHouse gives it without
    /// group_by_use_nulls); grouping(k, ...) is the bitmask of the keys the set leaves out
    /// (the SQL standard's, as in DuckDB and ClickHouse's default); no ORDER BY or limits.
    std::vector<sql::SelectStatement> per_set;
    /// SELECT * over the union with the query's ORDER BY (each key a select item: by
    /// position, alias or the same expression), LIMIT BY, LIMIT and OFFSET.
    sql::SelectStatement finish;
    /// WITH TOTALS: the statement's totals are those of the set of every key, whose per_set
    /// query carries WITH TOTALS; where no set has every key, totals_only is that query, run
    /// for its totals alone.
    std::optional<sql::SelectStatement> totals_only;
};

/// Throws kNotImplemented for CUBE over more than kMaxCubeKeys keys and for
/// an ORDER BY or LIMIT BY key that is no select item; kBadArguments for a bad position.
GroupingSetsPlan planGroupingSets(const sql::SelectStatement& select, const TableSchema& schema);

/// CUBE of n keys runs 2^n sets.
inline constexpr size_t kMaxCubeKeys = 10;

}  // namespace granary
