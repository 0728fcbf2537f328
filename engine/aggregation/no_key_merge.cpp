#include "engine/aggregation/no_key_merge.h"

#include <algorithm>
#include <vector>

#include "engine/aggregation/finalize_groups.h"

namespace granary
{
namespace
{

/// Folds every source's state of `entry` into the target's: a function with a parallel merge
/// of its own (count(DISTINCT) sets) runs and records its phases on the query's threads,
/// others as one task of a merge phase recorded here (one recorder around the former would
/// count their wall twice).
void mergeEntry(const AggregateLayout::Entry& entry, char* target,
                const std::vector<PartialAggregateWithoutKey*>& partials, QueryContext& context)
{
    std::vector<char*> sources;
    for (size_t p = 1; p < partials.size(); ++p)
    {
        sources.push_back(partials[p]->state() + entry.offset);
    }
    if (entry.function->hasParallelMergeMany())
    {
        MergeContext merge_context{&context, nullptr, nullptr};
        entry.function->mergeMany(target + entry.offset, sources, merge_context);
        return;
    }
    PhaseRecorder merge(context.stats().phase(QueryPhase::kMerge));
    context.runTasks(merge, 1,
                     [&](size_t, TaskTimer&)
                     {
                         MergeContext serial{};
                         entry.function->mergeMany(target + entry.offset, sources, serial);
                     });
}

}  // namespace

Block mergeWithoutKey(const GroupByPlan& plan,
                      std::span<const std::unique_ptr<LocalSinkState>> locals,
                      QueryContext& context)
{
    QueryStats& stats = context.stats();
    stats.partials = std::max<size_t>(locals.size(), 1);
    stats.single_level_partials = stats.partials;
    return foldWithoutKey(plan, locals, context);
}

Block foldWithoutKey(const GroupByPlan& plan,
                     std::span<const std::unique_ptr<LocalSinkState>> locals, QueryContext& context)
{
    QueryStats& stats = context.stats();
    // No local at all still answers one row: count() 0, sum() NULL...
    std::unique_ptr<PartialAggregateWithoutKey> empty;
    std::vector<PartialAggregateWithoutKey*> partials;
    for (const auto& local : locals)
    {
        partials.push_back(&static_cast<NoKeyLocalState&>(*local).partial());
    }
    if (partials.empty())
    {
        empty = std::make_unique<PartialAggregateWithoutKey>(*plan.layout);
        partials.push_back(empty.get());
    }
    char* target = partials.front()->state();
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        mergeEntry(entry, target, partials, context);
    }
    PhaseRecorder finalize(stats.phase(QueryPhase::kFinalize));
    Block result = emptyResult(plan);
    context.runTasks(finalize, 1,
                     [&](size_t, TaskTimer&) { appendResults(plan, &target, 1, result, 0); });
    return result;
}

}  // namespace granary
