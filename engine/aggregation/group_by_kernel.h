#pragma once

#include <memory>
#include <span>
#include <vector>

#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/local_sink_state.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// The code a GROUP BY runs, chosen once per plan from its key types (one instantiation per
/// key method): it makes the local states and merges and finalizes them.
class GroupByKernel
{
public:
    virtual ~GroupByKernel() = default;

    virtual std::unique_ptr<LocalSinkState> makeLocalState() const = 0;
    /// Merges `locals` (each combined local, some perhaps empty) and returns the result in
    /// fragments of the plan's result schema: none when no row was sunk.
    virtual std::vector<Block> mergeAndFinalize(
        std::span<const std::unique_ptr<LocalSinkState>> locals, QueryContext& context) const = 0;
};

/// The kernel for `plan`'s key types. `plan` and `settings` must outlive it.
std::unique_ptr<GroupByKernel> makeGroupByKernel(const GroupByPlan& plan,
                                                 const AggregationSettings& settings);

}  // namespace granary
