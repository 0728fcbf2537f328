#pragma once

#include "engine/sql/statement.h"

namespace granary
{

/// A SELECT without GROUP BY whose every aggregate takes the rows of one condition c, by
/// `FILTER (WHERE c)` or the -If combinator (`countIf(c)`, `maxIf(URL, c)`), rewritten to the
/// same aggregates without filters and c in WHERE (ANDed to a WHERE already there). Each
/// aggregate sees the same rows either way, and without keys there is one result row either
/// way (over no rows, each aggregate's empty answer). The scan then evaluates c once instead
/// of once per aggregate and reads the aggregates' other columns only where c holds. Left
/// alone: GROUP BY keys (a group with no row passing c would vanish), GROUPING SETS, WITH
/// TOTALS, ARRAY JOIN (WHERE filters before the join, an aggregate's condition after it; run
/// it after arrayJoin() calls have become the clause), -State, -Merge and -Array calls, and
/// conditions that are not a comparison, logical operation or IN (WHERE would take a number
/// the aggregates refuse). Setting optimize_aggregate_filters_to_where. True when it rewrote.
bool moveSharedAggregateFilterToWhere(sql::SelectStatement& select);

}  // namespace granary
