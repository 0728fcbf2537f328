#include "engine/aggregation/aggregator.h"

#include <algorithm>

#include "engine/aggregation/group_by_operator.h"
#include "engine/aggregation/partial_phase.h"
#include "engine/aggregation/result_builder.h"

namespace granary
{
namespace
{

/// Morsels a worker should get at least, so that workers finish together (load balance) and
/// one morsel is a small share of the partial phase's span.
constexpr size_t kMorselsPerWorker = 4;
/// Below this a morsel's fixed costs (task, key batch setup) stop being negligible.
constexpr size_t kMinMorselRows = 8192;

/// `largest` rows per morsel, or fewer where that would leave workers with under
/// kMorselsPerWorker morsels each.
size_t morselRowsFor(size_t rows, size_t threads, size_t largest)
{
    const size_t balanced = rows / std::max<size_t>(threads * kMorselsPerWorker, 1);
    return std::clamp(balanced, std::min(kMinMorselRows, largest), largest);
}

}  // namespace

Aggregator::Aggregator(std::vector<std::string> keys, std::vector<AggregateDescription> aggregates,
                       AggregationSettings settings)
    : keys_(std::move(keys)), aggregates_(std::move(aggregates)), settings_(settings)
{
}

Block Aggregator::execute(const BlockView& input, QueryContext& context, const TopGroups* top) const
{
    const BlockViewInput morsels(
        input, morselRowsFor(input.rows(), context.workers(), settings_.morsel_rows));
    return execute(morsels, context, top);
}

Block Aggregator::execute(const AggregationInput& input, QueryContext& context,
                          const TopGroups* top) const
{
    // The calling thread's frees (partials at the end) are charged to the query too.
    MemoryTrackerScope memory_scope(&context.memory());
    AggregationSettings settings = settings_;
    // A single morsel has no merge to spare, only the by-value plan's three rounds of 256
    // tasks to pay.
    settings.distinct.count_by_value_buckets &= input.morsels() > 1;
    settings.distinct.string_key_value_buckets =
        input.rows() <= settings.string_key_value_buckets_rows;
    // The share a count(DISTINCT) set of one worker among several samples against.
    const size_t workers = partialWorkers(input, context);
    settings.distinct.worker_share_rows = workers > 1 ? input.rows() / workers : 0;
    settings.distinct.new_values_sample_rows = settings.partition_new_keys_rows;
    GroupByOperator op(makeGroupByPlan(input.columns(), keys_, aggregates_, settings), settings,
                       context);
    if (settings.limit_to_any_groups && top != nullptr && top->order.empty() && !keys_.empty() &&
        top->rows > 0 && top->rows <= AnyGroupsFilter::kMaxGroups)
    {
        op.admitAnyGroups(top->rows);
    }
    sinkMorsels(input, op, settings, context);
    return concatenateResult(op.finish(top), op.plan(), context);
}

Aggregator::ResultWithTotals Aggregator::executeWithTotals(const AggregationInput& input,
                                                           QueryContext& context) const
{
    MemoryTrackerScope memory_scope(&context.memory());
    AggregationSettings settings = settings_;
    // Counting distinct pairs by value keeps no per-group set to serialize.
    settings.distinct.count_by_value_buckets = false;
    GroupByOperator op(makeGroupByPlan(input.columns(), keys_, aggregates_, settings), settings,
                       context);
    sinkMorsels(input, op, settings, context);
    std::vector<Block> fragments = op.finish(nullptr, AggregateOutput::kResultsAndStates);
    GroupTotals totals(op.plan());
    return {concatenateResult(std::move(fragments), op.plan(), context), std::move(totals)};
}

}  // namespace granary
