#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/aggregation/group_by_plan.h"
#include "engine/columns/block.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// ClickHouse's WITH TOTALS: every aggregate over all the groups a caller keeps (those HAVING
/// passes), folded from the groups' serialized states (AggregateOutput::kResultsAndStates)
/// rather than from the rows again, so a query with totals reads its rows once. The states
/// are folded as fMerge folds them, so totals of uniq, quantiles and NULL-skipping
/// aggregates are what the same aggregate over those groups' rows gives.
class GroupTotals
{
public:
    /// For the aggregates of `plan`, whose result holds their states.
    explicit GroupTotals(const GroupByPlan& plan);
    ~GroupTotals();
    GroupTotals(GroupTotals&&) noexcept;
    GroupTotals& operator=(GroupTotals&&) noexcept;

    /// The state columns of the result (stateColumnName of each aggregate), which a caller
    /// drops once the totals are merged.
    std::vector<std::string> stateColumns() const;

    /// One row, a column per aggregate named as its result: the states of every row of
    /// `groups` (rows of the result, any of them in any order; none gives the aggregates
    /// over no row) folded on the query's threads.
    Block merge(const Block& groups, QueryContext& context) const;

private:
    std::unique_ptr<GroupByPlan> plan_;  ///< Keyless: MergeStateFunctions over the states.
};

}  // namespace granary
