#pragma once

#include <memory>
#include <vector>

#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/group_by_kernel.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/local_sink_state.h"

namespace granary
{

/// Folds imported partial states (batches of keys, then one String column of serialized
/// states per aggregate) into a GroupByOperator of the plan that made them: the plan of
/// MergeStateFunctions (ClickHouse's -Merge) and its kernel, whose locals have the raw plan's
/// state layout and so combine with the operator's own into one merge. Must outlive the
/// locals it makes.
class StateMerge
{
public:
    /// `columns`: the batches' columns, as partialStateColumns(plan_of_rows) names them (a
    /// host may add columns of its own, such as NULL-key markers).
    StateMerge(const GroupByPlan& plan_of_rows, std::vector<InputColumn> columns,
               const AggregationSettings& settings);

    const GroupByPlan& plan() const { return *plan_; }
    std::unique_ptr<LocalSinkState> makeLocal() const { return kernel_->makeLocalState(); }
    /// Exception(kIncorrectData) naming the column and row of the first state among `rows`
    /// rows of `columns` that is not one: run over a whole batch before it is sunk, so that
    /// a damaged batch merges nothing.
    void checkStates(const std::vector<ColumnView>& columns, size_t rows) const;

private:
    /// Locals of imported states aggregate them in place: no rows are routed to the merge,
    /// where they would be read with the raw plan's columns.
    AggregationSettings settings_;
    std::unique_ptr<GroupByPlan> plan_;
    std::unique_ptr<GroupByKernel> kernel_;
};

/// The columns of `plan`'s partial-state batches: its keys, named and typed as the plan's,
/// then one String column of states per aggregate, named as its result.
std::vector<InputColumn> partialStateColumns(const GroupByPlan& plan);

}  // namespace granary
