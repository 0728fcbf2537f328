#pragma once

#include <string>
#include <vector>

#include "engine/aggregation/aggregation_input.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/group_totals.h"
#include "engine/columns/block.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// GROUP BY keys with aggregates over a block of columns or a scan, in one call: workers on
/// the query's threads each sink morsels into a local state of a GroupByOperator, whose
/// finish merges them in parallel (converted to two-level and merged bucket by bucket where
/// that pays) and finalizes per bucket in parallel. The result has the key columns, then one
/// column per aggregate.
class Aggregator
{
public:
    Aggregator(std::vector<std::string> keys, std::vector<AggregateDescription> aggregates,
               AggregationSettings settings = {});

    /// Throws Exception (unknown column, type mismatch, cancelled) or MemoryLimitExceeded;
    /// either way every state and table is freed. Statistics go to context.stats().
    /// With `top`, the result may leave out groups that are not among the first top->rows in
    /// its order (each bucket keeps its own first top->rows, in their original order), so that
    /// sorting the result and keeping top->rows rows gives what sorting every group would,
    /// ties included (the order's ties fall back to result position in both).
    Block execute(const BlockView& input, QueryContext& context,
                  const TopGroups* top = nullptr) const;
    /// The same over morsels produced on the query's threads (a scan with filters).
    Block execute(const AggregationInput& input, QueryContext& context,
                  const TopGroups* top = nullptr) const;

    /// WITH TOTALS: execute's result (no TopGroups: totals need every group) with each
    /// aggregate's state after the results, and what folds the states of any of its rows.
    struct ResultWithTotals
    {
        Block groups;
        GroupTotals totals;
    };
    ResultWithTotals executeWithTotals(const AggregationInput& input, QueryContext& context) const;

    const AggregationSettings& settings() const { return settings_; }

private:
    std::vector<std::string> keys_;
    std::vector<AggregateDescription> aggregates_;
    AggregationSettings settings_;
};

}  // namespace granary
