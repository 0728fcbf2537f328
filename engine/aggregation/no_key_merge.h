#pragma once

// Aggregation without GROUP BY keys: every local folds its rows into one group's states,
// and the merge folds those into one result row.

#include <memory>
#include <span>

#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/local_sink_state.h"
#include "engine/aggregation/partial_aggregate.h"
#include "engine/exec/query_context.h"

namespace granary
{

class NoKeyLocalState final : public LocalSinkState
{
public:
    explicit NoKeyLocalState(const AggregateLayout& layout) : partial_(layout) {}
    void sink(const std::vector<ColumnView>& columns, size_t rows) override
    {
        partial_.aggregate(columns, rows);
    }
    size_t rows() const override { return partial_.rows(); }
    size_t groups() const override { return 1; }
    size_t growths() const override { return 0; }
    PartialAggregateWithoutKey& partial() { return partial_; }

private:
    PartialAggregateWithoutKey partial_;
};

/// The one result row of `locals` merged (of empty states when there are none); the
/// partials are counted in the query's statistics.
Block mergeWithoutKey(const GroupByPlan& plan,
                      std::span<const std::unique_ptr<LocalSinkState>> locals,
                      QueryContext& context);
/// The same, leaving the count of partials to the query's own aggregation (for a merge
/// beside it: WITH TOTALS).
Block foldWithoutKey(const GroupByPlan& plan,
                     std::span<const std::unique_ptr<LocalSinkState>> locals,
                     QueryContext& context);

}  // namespace granary
