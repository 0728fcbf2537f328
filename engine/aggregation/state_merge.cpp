#include "engine/aggregation/state_merge.h"

#include "engine/aggregation/functions/merge_state.h"

namespace granary
{
namespace
{

AggregationSettings inPlaceSettings(AggregationSettings settings)
{
    settings.partition_high_cardinality = false;
    return settings;
}

}  // namespace

StateMerge::StateMerge(const GroupByPlan& plan_of_rows, std::vector<InputColumn> columns,
                       const AggregationSettings& settings)
    : settings_(inPlaceSettings(settings)),
      plan_(makeStateMergePlan(plan_of_rows, std::move(columns))),
      kernel_(makeGroupByKernel(*plan_, settings_))
{
}

void StateMerge::checkStates(const std::vector<ColumnView>& columns, size_t rows) const
{
    for (const AggregateLayout::Entry& entry : plan_->layout->entries())
    {
        static_cast<const MergeStateFunction&>(*entry.function)
            .checkStates(columns[entry.argument_columns[0]], 0, rows);
    }
}

std::vector<InputColumn> partialStateColumns(const GroupByPlan& plan)
{
    std::vector<InputColumn> columns;
    for (size_t k = 0; k < plan.key_names.size(); ++k)
    {
        columns.push_back({plan.key_names[k], plan.key_types[k]});
    }
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        columns.push_back({entry.result_name, TypeId::String});
    }
    return columns;
}

}  // namespace granary
