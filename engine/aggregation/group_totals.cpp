#include "engine/aggregation/group_totals.h"

#include <algorithm>

#include "engine/aggregation/aggregation_input.h"
#include "engine/aggregation/no_key_merge.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// States per folding task at least: below this a task costs more than the folds it runs.
constexpr size_t kMinStatesPerTask = 4096;

std::vector<InputColumn> stateInputColumns(const GroupByPlan& plan)
{
    std::vector<InputColumn> columns;
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        columns.push_back({entry.result_name, TypeId::String});
    }
    return columns;
}

}  // namespace

GroupTotals::GroupTotals(const GroupByPlan& plan)
    : plan_(makeStateMergePlan(plan, stateInputColumns(plan), /*by_keys=*/false))
{
}

GroupTotals::~GroupTotals() = default;
GroupTotals::GroupTotals(GroupTotals&&) noexcept = default;
GroupTotals& GroupTotals::operator=(GroupTotals&&) noexcept = default;

std::vector<std::string> GroupTotals::stateColumns() const
{
    std::vector<std::string> names;
    for (const InputColumn& column : plan_->input_columns)
    {
        names.push_back(stateColumnName(column.name));
    }
    return names;
}

Block GroupTotals::merge(const Block& groups, QueryContext& context) const
{
    BlockView states;
    for (const InputColumn& column : plan_->input_columns)
    {
        const Column* found = groups.find(stateColumnName(column.name));
        if (found == nullptr)
        {
            throw Exception(ErrorCode::kLogicalError,
                            "the groups hold no state of '" + column.name + "' to total");
        }
        states.columns.push_back({column.name, found->view()});
    }
    const size_t rows = groups.rows();
    const size_t tasks = std::clamp<size_t>(rows / kMinStatesPerTask, 1, context.workers());
    const BlockViewInput input(states, (rows + tasks - 1) / tasks);
    std::vector<std::unique_ptr<LocalSinkState>> locals(input.morsels());
    PhaseRecorder recorder(context.stats().phase(QueryPhase::kMerge));
    context.runTasks(recorder, locals.size(),
                     [&](size_t morsel, TaskTimer&)
                     {
                         std::vector<ColumnView> columns;
                         const size_t count = input.produce(morsel, nullptr, columns);
                         locals[morsel] = std::make_unique<NoKeyLocalState>(*plan_->layout);
                         locals[morsel]->sink(columns, count);
                     });
    recorder.finish();
    return foldWithoutKey(*plan_, locals, context);
}

}  // namespace granary
