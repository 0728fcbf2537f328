#include "engine/aggregation/group_by_operator.h"

#include "engine/observe/profile_events.h"

namespace granary
{

GroupByOperator::GroupByOperator(std::unique_ptr<GroupByPlan> plan,
                                 const AggregationSettings& settings, QueryContext& context,
                                 std::shared_ptr<PhaseRecorder> partial_recorder)
    : plan_(std::move(plan)),
      settings_(settings),
      context_(context),
      kernel_(makeGroupByKernel(*plan_, settings_)),
      resources_before_(ResourceSnapshot::take()),
      partial_recorder_(
          partial_recorder != nullptr
              ? std::move(partial_recorder)
              : std::make_shared<PhaseRecorder>(context_.stats().phase(QueryPhase::kPartial)))
{
}

GroupByOperator::~GroupByOperator()
{
    // Locals free their tables here: charge the frees to the query, like their allocations.
    MemoryTrackerScope memory(&context_.memory());
    locals_.clear();
}

void GroupByOperator::admitAnyGroups(size_t groups)
{
    any_groups_ = std::make_unique<AnyGroupsFilter>(plan_->key_columns, groups);
}

std::unique_ptr<LocalSinkState> GroupByOperator::makeLocal() const
{
    std::unique_ptr<LocalSinkState> local = kernel_->makeLocalState();
    return any_groups_ ? any_groups_->wrap(std::move(local)) : std::move(local);
}

void GroupByOperator::sink(LocalSinkState& local, const std::vector<ColumnView>& columns,
                           size_t rows)
{
    context_.checkCancelled();
    local.sink(columns, rows);
    input_rows_.fetch_add(rows, std::memory_order_relaxed);
    ProfileEvents::increment(ProfileEvent::RowsRead, rows);
}

void GroupByOperator::combine(std::unique_ptr<LocalSinkState> local)
{
    if (any_groups_)
    {
        local = AnyGroupsFilter::unwrap(std::move(local));
    }
    std::lock_guard lock(locals_mutex_);
    locals_.push_back(std::move(local));
}

std::vector<Block> GroupByOperator::finish(const TopGroups* top, AggregateOutput output)
{
    partial_recorder_->finish();
    MemoryTrackerScope memory(&context_.memory());
    QueryStats& stats = context_.stats();
    stats.input_rows += input_rows_.load();
    stats.rows_outside_any_groups += any_groups_ ? any_groups_->droppedRows() : 0;
    if (top != nullptr)
    {
        plan_->top = resolveTop(*top, *plan_);
    }
    plan_->output = output;
    std::vector<Block> fragments;
    {
        ProfileEventsThreadScope events(context_.profileEvents());
        fragments = kernel_->mergeAndFinalize(locals_, context_);
        locals_.clear();
    }
    stats.unfinalized_groups = plan_->unfinalized_groups.load();
    size_t result_rows = 0;
    for (const Block& fragment : fragments)
    {
        result_rows += fragment.rows();
    }
    stats.resources = ResourceSnapshot::take() - resources_before_;
    stats.profile_events = context_.profileEvents().snapshot();
    stats.result_rows = result_rows;
    stats.peak_memory_bytes = context_.memory().peakBytes();
    return fragments;
}

}  // namespace granary
