#pragma once

#include "engine/distributed/transport.h"
#include "engine/planner/select_executor.h"

namespace granary::distributed
{

/// Runs a SELECT over the union of every rank's own `table` (a shard: the same schema on
/// every rank). Each rank scans its shard and aggregates it on its threads into partial
/// states; the states of bucket b go to rank b mod N (without GROUP BY keys, all to rank 0),
/// which merges and finalizes them while the others merge theirs; each rank keeps its own
/// HAVING rows and top LIMIT + OFFSET, and those meet at rank 0, which orders them, applies
/// OFFSET and the select list. A query without aggregation sends each rank's own top rows.
/// Collective: every rank calls it with the same statement. The result is rank 0's (an
/// empty block at the others); an error on any rank is thrown on every rank, naming it.
/// Exchange figures go to context.stats().exchange (every rank's at rank 0).
SelectOutcome executeDistributedSelect(const sql::SelectStatement& select, const Table& table,
                                       QueryContext& context, const SelectSettings& settings,
                                       Transport& transport, const ScanObserver& observer = {});

}  // namespace granary::distributed
