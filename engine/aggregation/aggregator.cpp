#include "engine/aggregation/aggregator.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/aggregate_layout.h"
#include "engine/aggregation/distinct_value_buckets.h"
#include "engine/aggregation/inline_count.h"
#include "engine/aggregation/key_methods.h"
#include "engine/aggregation/partial_aggregate.h"
#include "engine/aggregation/partial_phase.h"
#include "engine/aggregation/result_builder.h"
#include "engine/columns/sort_permutation.h"
#include "engine/common/exception.h"
#include "engine/exec/first_touch.h"
#include "engine/observe/profile_events.h"
#include "engine/observe/resource_snapshot.h"

namespace granary
{
namespace
{

/// Buckets of a two-level table, and the number of key ranges a direct-mapped table is split
/// into for merging and finalizing: one task each.
constexpr size_t kMergeBuckets = 256;

/// The resolved input of one aggregation.
struct Plan
{
    const AggregationInput* input = nullptr;
    std::vector<size_t> key_columns;  ///< Positions among the input's columns.
    std::vector<TypeId> key_types;
    std::vector<std::string> key_names;
    std::unique_ptr<AggregateLayout> layout;
    /// The caller's TopGroups: result column positions (keys first, then aggregates) with
    /// their directions, and how many groups it keeps.
    struct Top
    {
        std::vector<std::pair<size_t, bool>> order;
        size_t rows = 0;
    };
    std::optional<Top> top;
    /// Groups left out of the result by `top`, summed over the finalize tasks.
    mutable std::atomic<size_t> unfinalized_groups{0};
};

/// The position of column `name` among the input's columns.
size_t resolveColumn(const AggregationInput& input, const std::string& name, std::string_view role)
{
    const std::vector<InputColumn>& columns = input.columns();
    for (size_t i = 0; i < columns.size(); ++i)
    {
        if (columns[i].name == name)
        {
            return i;
        }
    }
    throw Exception(ErrorCode::kUnknownColumn,
                    "unknown column '" + name + "' in " + std::string(role));
}

/// The result column positions of a TopGroups request; Exception(kUnknownColumn) for a name
/// that is neither a key nor an aggregate result.
Plan::Top resolveTop(const TopGroups& top, const Plan& plan)
{
    Plan::Top resolved;
    resolved.rows = top.rows;
    const auto& entries = plan.layout->entries();
    for (const TopGroups::OrderColumn& column : top.order)
    {
        size_t position = 0;
        const auto key = std::find(plan.key_names.begin(), plan.key_names.end(), column.name);
        if (key != plan.key_names.end())
        {
            position = static_cast<size_t>(key - plan.key_names.begin());
        }
        else
        {
            const auto aggregate = std::find_if(entries.begin(), entries.end(),
                                                [&](const AggregateLayout::Entry& entry)
                                                { return entry.result_name == column.name; });
            if (aggregate == entries.end())
            {
                throw Exception(ErrorCode::kUnknownColumn,
                                "unknown column '" + column.name + "' in the order of top groups");
            }
            position = plan.key_names.size() + static_cast<size_t>(aggregate - entries.begin());
        }
        resolved.order.emplace_back(position, column.descending);
    }
    return resolved;
}

/// An empty block with the result's schema: the key columns, then the aggregates.
Block emptyResult(const Plan& plan)
{
    Block block;
    for (size_t k = 0; k < plan.key_types.size(); ++k)
    {
        block.columns.push_back({plan.key_names[k], Column(plan.key_types[k])});
    }
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        block.columns.push_back({entry.result_name, Column(entry.function->resultType())});
    }
    return block;
}

/// Groups whose results are written together: their states are prefetched while the batch
/// fills, and each function writes the batch in one call.
constexpr size_t kFinalizeBatchGroups = 256;

/// Appends the results of `count` groups (after the key columns) to `block`.
void appendResults(const AggregateLayout& layout, char* const* states, size_t count, Block& block,
                   size_t first_column)
{
    const auto& entries = layout.entries();
    for (size_t i = 0; i < entries.size(); ++i)
    {
        entries[i].function->insertResultsInto(states, count, entries[i].offset,
                                               block.columns[first_column + i].column);
    }
}

/// Appends keys to the key columns: in one copy where the method's keys are the column's
/// values, one by one otherwise.
template <typename Method>
void appendKeys(const typename Method::Key* batch, size_t count, std::vector<Column>& keys)
{
    if constexpr (requires { Method::appendKeys(batch, count, keys); })
    {
        Method::appendKeys(batch, count, keys);
    }
    else
    {
        for (size_t i = 0; i < count; ++i)
        {
            Method::appendKey(batch[i], keys);
        }
    }
}

/// Calls on_batch(keys, slots, count) for the groups of `table`, up to kFinalizeBatchGroups
/// at a time, with the cells' state slots as they are.
template <typename Method, typename Table, typename OnBatch>
void forEachSlotBatch(Table& table, OnBatch&& on_batch)
{
    if constexpr (requires {
                      table.template collectElements<kFinalizeBatchGroups>(
                          [](auto*, StatePointer*, size_t) {});
                  })
    {
        table.template collectElements<kFinalizeBatchGroups>(on_batch);
    }
    else
    {
        std::array<typename Method::Key, kFinalizeBatchGroups> keys;
        std::array<StatePointer, kFinalizeBatchGroups> states;
        size_t count = 0;
        forEachGroup(table,
                     [&](const auto& key, StatePointer state)
                     {
                         keys[count] = key;
                         states[count] = state;
                         if (++count == kFinalizeBatchGroups)
                         {
                             on_batch(keys.data(), states.data(), count);
                             count = 0;
                         }
                     });
        if (count > 0)
        {
            on_batch(keys.data(), states.data(), count);
        }
    }
}

/// Calls on_batch(keys, states, count) for the groups of `table`, up to kFinalizeBatchGroups
/// at a time, with pointers to their states.
template <typename Method, typename Table, typename OnBatch>
void forEachGroupBatch(Table& table, const AggregateLayout& layout, OnBatch&& on_batch)
{
    if (!layout.isLoneCount())
    {
        forEachSlotBatch<Method>(table, on_batch);
        return;
    }
    InlineCountStates<kFinalizeBatchGroups> counts;
    forEachSlotBatch<Method>(table, [&](const auto* keys, StatePointer* slots, size_t count)
                             { on_batch(keys, counts.pointTo(slots, count), count); });
}

std::vector<Column> emptyKeys(const Plan& plan)
{
    std::vector<Column> keys;
    for (TypeId type : plan.key_types)
    {
        keys.emplace_back(type);
    }
    return keys;
}

/// Appends a batch of groups: their keys to `keys`, their results after the key columns of
/// `fragment`.
template <typename Method>
void appendGroups(const typename Method::Key* batch_keys, StatePointer* states, size_t count,
                  const Plan& plan, std::vector<Column>& keys, Block& fragment)
{
    for (size_t i = 0; i < count; ++i)
    {
        __builtin_prefetch(states[i]);
    }
    appendKeys<Method>(batch_keys, count, keys);
    appendResults(*plan.layout, states, count, fragment, keys.size());
}

/// The positions (in forEachGroupBatch order) of the first plan.top->rows groups of `table` in
/// the top request's order, ties in position order, sorted by position. Only the ordered
/// columns are computed: the keys when the order names one, and the ordered aggregates.
template <typename Method, typename Table>
std::vector<uint32_t> topGroupPositions(Table& table, const Plan& plan)
{
    const size_t key_count = plan.key_names.size();
    const auto& order = plan.top->order;
    size_t groups = 0;
    if constexpr (requires { table.size(); })
    {
        groups = table.size();
    }
    else
    {
        forEachSlotBatch<Method>(
            table, [&](const auto*, StatePointer*, size_t count) { groups += count; });
    }
    if (order.empty() || groups <= plan.top->rows)
    {
        // LIMIT without ORDER BY, or no more groups than kept: the first groups, as the full
        // result's first rows would be, with nothing to sort.
        std::vector<uint32_t> first(std::min(groups, plan.top->rows));
        std::iota(first.begin(), first.end(), 0);
        plan.unfinalized_groups += groups - first.size();
        return first;
    }
    const bool orders_by_key = std::any_of(
        order.begin(), order.end(), [&](const auto& column) { return column.first < key_count; });
    std::vector<Column> key_columns = emptyKeys(plan);
    std::vector<Column> ordered(order.size());
    for (size_t k = 0; k < order.size(); ++k)
    {
        if (order[k].first >= key_count)
        {
            ordered[k] =
                Column(plan.layout->entries()[order[k].first - key_count].function->resultType());
        }
    }
    forEachGroupBatch<Method>(table, *plan.layout,
                              [&](const auto* batch_keys, StatePointer* states, size_t count)
                              {
                                  if (orders_by_key)
                                  {
                                      appendKeys<Method>(batch_keys, count, key_columns);
                                  }
                                  for (size_t k = 0; k < order.size(); ++k)
                                  {
                                      if (order[k].first >= key_count)
                                      {
                                          const AggregateLayout::Entry& entry =
                                              plan.layout->entries()[order[k].first - key_count];
                                          entry.function->insertResultsInto(
                                              states, count, entry.offset, ordered[k]);
                                      }
                                  }
                              });
    std::vector<SortKey> sort_keys;
    for (size_t k = 0; k < order.size(); ++k)
    {
        const Column& values =
            order[k].first < key_count ? key_columns[order[k].first] : ordered[k];
        sort_keys.push_back({values.view(), order[k].second});
    }
    std::vector<uint32_t> kept = sortedPermutation(sort_keys, groups, plan.top->rows);
    std::sort(kept.begin(), kept.end());
    plan.unfinalized_groups += groups - kept.size();
    return kept;
}

/// Finalizes only the groups of `table` that rank among the first plan.top->rows, in their
/// table order: a top-N over millions of groups computes the ordered columns for all of them
/// (a first pass over the table) and every other column (keys included, often long strings)
/// for N (a second pass, which picks them by position).
template <typename Method, typename Table>
Block finalizeTopGroups(Table& table, const Plan& plan)
{
    const std::vector<uint32_t> kept = topGroupPositions<Method>(table, plan);
    Block fragment = emptyResult(plan);
    std::vector<Column> key_columns = emptyKeys(plan);
    std::vector<typename Method::Key> keys;
    std::vector<StatePointer> states;
    size_t position = 0;
    auto next = kept.begin();
    forEachGroupBatch<Method>(table, *plan.layout,
                              [&](const auto* batch_keys, StatePointer* batch_states, size_t count)
                              {
                                  keys.clear();
                                  states.clear();
                                  for (; next != kept.end() && *next < position + count; ++next)
                                  {
                                      keys.push_back(batch_keys[*next - position]);
                                      states.push_back(batch_states[*next - position]);
                                  }
                                  if (!keys.empty())
                                  {
                                      appendGroups<Method>(keys.data(), states.data(), keys.size(),
                                                           plan, key_columns, fragment);
                                  }
                                  position += count;
                              });
    for (size_t k = 0; k < key_columns.size(); ++k)
    {
        fragment.columns[k].column = std::move(key_columns[k]);
    }
    return fragment;
}

/// Builds a fragment of the result from the groups of one table (or bucket, or key range).
template <typename Method, typename Table>
Block finalizeGroups(Table& table, const Plan& plan)
{
    if (plan.top)
    {
        return finalizeTopGroups<Method>(table, plan);
    }
    Block fragment = emptyResult(plan);
    std::vector<Column> keys = emptyKeys(plan);
    // Appending millions of values one by one would regrow every column many times.
    if constexpr (requires { table.size(); })
    {
        const size_t groups = table.size();
        for (Column& key : keys)
        {
            key.reserve(groups);
        }
        for (Block::Entry& entry : fragment.columns)
        {
            entry.column.reserve(groups);
        }
    }
    forEachGroupBatch<Method>(
        table, *plan.layout,
        [&](const auto* batch_keys, StatePointer* states, size_t count)
        { appendGroups<Method>(batch_keys, states, count, plan, keys, fragment); });
    for (size_t k = 0; k < keys.size(); ++k)
    {
        fragment.columns[k].column = std::move(keys[k]);
    }
    return fragment;
}

bool allFixedWidth(const Block& block)
{
    return std::none_of(block.columns.begin(), block.columns.end(),
                        [](const Block::Entry& entry) { return isString(entry.column.type()); });
}

/// Writes the groups of `table` to rows [row, row + table.size()) of `result`, whose columns
/// are fixed-width and already sized, through a batch-sized scratch fragment that stays in
/// cache: no fragment of the table's size to allocate, fault in and copy again.
template <typename Method, typename Table>
void finalizeGroupsInto(Table& table, const Plan& plan, Block& result, size_t row)
{
    Block scratch = emptyResult(plan);
    std::vector<Column> keys = emptyKeys(plan);
    forEachGroupBatch<Method>(
        table, *plan.layout,
        [&](const auto* batch_keys, StatePointer* states, size_t count)
        {
            appendGroups<Method>(batch_keys, states, count, plan, keys, scratch);
            for (size_t c = 0; c < result.columns.size(); ++c)
            {
                Column& batch = c < keys.size() ? keys[c] : scratch.columns[c].column;
                const size_t width = fixedWidth(batch.type());
                std::memcpy(result.columns[c].column.mutableData<char>() + row * width,
                            batch.view().data, count * width);
                batch.clear();
            }
            row += count;
        });
}

/// Finalizes a two-level table into `result` (the plan's empty result, every column
/// fixed-width): the columns are sized once and each bucket writes its groups at its own rows,
/// after the columns' pages were faulted in by huge-page-aligned tasks (bucket ranges do not
/// align with huge pages).
template <typename Method, typename TwoLevelTable>
Block finalizeInPlace(TwoLevelTable& table, const Plan& plan, Block result, QueryContext& context)
{
    std::vector<size_t> first_row(kMergeBuckets + 1, 0);
    for (size_t bucket = 0; bucket < kMergeBuckets; ++bucket)
    {
        first_row[bucket + 1] = first_row[bucket] + table.bucket(bucket).size();
    }
    std::vector<UntouchedBuffer> buffers;
    for (Block::Entry& entry : result.columns)
    {
        entry.column.resizeFixedUninitialized(first_row.back());
        buffers.push_back(
            {entry.column.mutableData<char>(), first_row.back() * fixedWidth(entry.column.type())});
    }
    PhaseStats& stats = context.stats().phase(QueryPhase::kFinalize);
    {
        // A recorder of its own: its tasks precede the writers', so the two spans add up.
        PhaseRecorder touch(stats);
        touchPagesInParallel(buffers, context, touch);
    }
    PhaseRecorder finalize(stats);
    context.runTasks(
        finalize, kMergeBuckets,
        [&](size_t bucket, TaskTimer&)
        { finalizeGroupsInto<Method>(table.bucket(bucket), plan, result, first_row[bucket]); });
    return result;
}

template <typename Method>
Block aggregateByKey(const Plan& plan, const AggregationSettings& settings, QueryContext& context)
{
    using Partial = PartialAggregate<Method>;
    QueryStats& stats = context.stats();
    auto all_partials = runPartialPhase<Partial>(
        *plan.input, settings, context, 0,
        [&] { return std::make_unique<Partial>(*plan.layout, plan.key_columns, settings); });

    std::vector<Partial*> partials;
    for (auto& partial : all_partials)
    {
        if (partial)
        {
            ProfileEvents::increment(ProfileEvent::ArenaBytes, partial->arena().bytesReserved());
            ProfileEvents::increment(ProfileEvent::TwoLevelConversions, partial->conversions());
        }
        if (partial && partial->rows() > 0)
        {
            partials.push_back(partial.get());
            (partial->isTwoLevel() ? stats.two_level_partials : stats.single_level_partials)++;
            stats.partial_memory_bytes += partial->memoryBytes();
            stats.partitioned_rows += partial->partitionedRows();
            stats.partitioned_bytes += partial->partitionedBytes();
            stats.partitioned_rows_aggregated_early += partial->partitionedRowsAggregated();
        }
    }
    stats.partials = partials.size();
    if (partials.empty())
    {
        return emptyResult(plan);
    }

    Partial& target = *partials.front();
    std::span<Partial* const> sources(partials.data() + 1, partials.size() - 1);
    size_t total_groups = 0;
    for (Partial* partial : partials)
    {
        total_groups += partial->size();
    }
    stats.partial_groups = total_groups;
    const bool all_single = stats.single_level_partials == partials.size();

    // Choose the merge path. Partitioned rows are aggregated by the bucket tasks of the
    // two-level paths (a partial only partitions once it is two-level).
    const bool partitioned = stats.partitioned_rows > 0;
    MergePath path;
    if (sources.empty() && !partitioned)
    {
        path = MergePath::kNone;
    }
    else if (all_single &&
             settings.merge_cost.serialIsFaster(total_groups, partials.size(), context.workers()) &&
             !(plan.layout->hasNonTrivialDestroy() &&
               total_groups / partials.size() >= kMergeBuckets))
    {
        // Not when the states are heavy (distinct sets) and each partial has groups enough to
        // spread over the buckets.
        path = MergePath::kSerial;
    }
    else if constexpr (!Method::kHasTwoLevel)
    {
        path = MergePath::kParallelFixedRanges;
    }
    else if (all_single)
    {
        path = MergePath::kParallelConvertAllSingle;
    }
    else if (stats.two_level_partials == partials.size())
    {
        path = MergePath::kParallelTwoLevel;
    }
    else
    {
        path = MergePath::kParallelConvertMixed;
    }

    if (path == MergePath::kSerial)
    {
        // One source after another into the first partial, until that outgrows a single-level
        // table (keys differ between partials, and the estimate above assumed they repeat):
        // then the sources left take the parallel path, the grown target with them.
        PhaseRecorder merge(stats.phase(QueryPhase::kMerge));
        size_t merged = 0;
        context.runTasks(merge, 1,
                         [&](size_t, TaskTimer& timer)
                         {
                             MergeContext merge_context{&context, &merge, &timer};
                             for (; merged < sources.size(); ++merged)
                             {
                                 if (Method::kHasTwoLevel &&
                                     target.size() > settings.group_by_two_level_threshold)
                                 {
                                     break;
                                 }
                                 mergeGroups(target.single(), sources[merged]->single(),
                                             *plan.layout, merge_context);
                             }
                         });
        sources = sources.subspan(merged);
        if (!sources.empty())
        {
            path = MergePath::kSerialThenParallel;
        }
    }
    stats.merge_path = path;

    const bool two_level_result =
        path == MergePath::kParallelConvertAllSingle || path == MergePath::kParallelConvertMixed ||
        path == MergePath::kParallelTwoLevel || path == MergePath::kSerialThenParallel ||
        (path == MergePath::kNone && target.isTwoLevel());
    if constexpr (Method::kHasTwoLevel)
    {
        if (path == MergePath::kParallelConvertAllSingle ||
            path == MergePath::kParallelConvertMixed || path == MergePath::kSerialThenParallel)
        {
            // Every single-level partial still to merge becomes two-level, each as its own
            // task: never one after another on one thread (the seed's Q5 pathology).
            std::vector<Partial*> to_convert;
            if (!target.isTwoLevel())
            {
                to_convert.push_back(&target);
            }
            for (Partial* source : sources)
            {
                if (!source->isTwoLevel())
                {
                    to_convert.push_back(source);
                }
            }
            // Fixed-width keys are routed to the merge's buckets instead: the bucket tasks
            // insert every group into the target anyway.
            PhaseRecorder convert(stats.phase(QueryPhase::kConvert));
            context.runTasks(convert, to_convert.size(),
                             [&](size_t i, TaskTimer&)
                             {
                                 if constexpr (Partial::kCanRoute)
                                 {
                                     to_convert[i]->routeToTwoLevel();
                                 }
                                 else
                                 {
                                     to_convert[i]->convertToTwoLevel();
                                     ProfileEvents::increment(ProfileEvent::TwoLevelConversions);
                                 }
                             });
            if constexpr (Partial::kCanRoute)
            {
                stats.routed_partials = to_convert.size();
            }
        }
    }

    if (path != MergePath::kNone && path != MergePath::kSerial)
    {
        PhaseRecorder merge(stats.phase(QueryPhase::kMerge));
        if constexpr (Method::kHasTwoLevel)
        {
            if (partitioned)
            {
                target.prepareForPartitionedRows();
            }
        }
        // 256 independent tasks; each merges its bucket (or key range) of every source,
        // then aggregates every worker's partitioned rows of that bucket.
        context.runTasks(
            merge, kMergeBuckets,
            [&](size_t bucket, TaskTimer& timer)
            {
                ProfileEvents::increment(ProfileEvent::MergeTasks);
                MergeContext merge_context{&context, &merge, &timer};
                if constexpr (Partial::kCanRoute)
                {
                    if (stats.routed_partials > 0)
                    {
                        target.mergeRouted(bucket, partials, merge_context);
                    }
                }
                for (Partial* source : sources)
                {
                    if constexpr (Method::kHasTwoLevel)
                    {
                        if (source->routed())
                        {
                            continue;
                        }
                        mergeGroups(target.twoLevel().bucket(bucket),
                                    source->twoLevel().bucket(bucket), *plan.layout, merge_context);
                    }
                    else
                    {
                        const size_t slots = Method::Single::kSlotCount;
                        mergeGroups(
                            target.single(),
                            source->single().slotRange(bucket * slots / kMergeBuckets,
                                                       (bucket + 1) * slots / kMergeBuckets),
                            *plan.layout, merge_context);
                    }
                }
                if constexpr (Method::kHasTwoLevel)
                {
                    if (partitioned)
                    {
                        target.aggregatePartitioned(bucket, partials,
                                                    [&] { context.checkCancelled(); });
                    }
                }
            });
    }

    for (Partial* partial : partials)
    {
        ProfileEvents::increment(ProfileEvent::HashTableResizes, partial->resizes());
    }

    // Finalize: one fragment per bucket (or key range), built in parallel, then concatenated.
    if constexpr (Method::kHasTwoLevel)
    {
        Block result = emptyResult(plan);
        if (two_level_result && allFixedWidth(result) && !plan.top)
        {
            return finalizeInPlace<Method>(target.twoLevel(), plan, std::move(result), context);
        }
    }
    PhaseRecorder finalize(stats.phase(QueryPhase::kFinalize));
    std::vector<Block> fragments;
    if constexpr (Method::kHasTwoLevel)
    {
        if (two_level_result)
        {
            fragments.resize(kMergeBuckets);
            context.runTasks(finalize, kMergeBuckets,
                             [&](size_t bucket, TaskTimer&) {
                                 fragments[bucket] =
                                     finalizeGroups<Method>(target.twoLevel().bucket(bucket), plan);
                             });
        }
    }
    if (!two_level_result)
    {
        if constexpr (Method::kHasTwoLevel)
        {
            fragments.resize(1);
            context.runTasks(finalize, 1,
                             [&](size_t, TaskTimer&)
                             { fragments[0] = finalizeGroups<Method>(target.single(), plan); });
        }
        else
        {
            const size_t slots = Method::Single::kSlotCount;
            const size_t ranges = std::min(kMergeBuckets, slots);
            fragments.resize(ranges);
            context.runTasks(finalize, ranges,
                             [&](size_t range, TaskTimer&)
                             {
                                 auto view = target.single().slotRange(
                                     range * slots / ranges, (range + 1) * slots / ranges);
                                 fragments[range] = finalizeGroups<Method>(view, plan);
                             });
        }
    }
    Block result = concatenateFragments(fragments, context, finalize);
    stats.unfinalized_groups = plan.unfinalized_groups.load();
    return result;
}

Block aggregateWithoutKey(const Plan& plan, const AggregationSettings& settings,
                          QueryContext& context)
{
    QueryStats& stats = context.stats();
    auto partials = runPartialPhase<PartialAggregateWithoutKey>(
        *plan.input, settings, context, 1,
        [&] { return std::make_unique<PartialAggregateWithoutKey>(*plan.layout); });
    stats.partials = partials.size();
    stats.single_level_partials = partials.size();

    char* target = partials.front()->state();
    {
        PhaseRecorder merge(stats.phase(QueryPhase::kMerge));
        for (const AggregateLayout::Entry& entry : plan.layout->entries())
        {
            std::vector<char*> sources;
            for (size_t p = 1; p < partials.size(); ++p)
            {
                sources.push_back(partials[p]->state() + entry.offset);
            }
            if (entry.function->hasParallelMergeMany())
            {
                // Runs its own convert and merge phases on the query's threads.
                MergeContext merge_context{&context, nullptr, nullptr};
                entry.function->mergeMany(target + entry.offset, sources, merge_context);
            }
            else
            {
                context.runTasks(merge, 1,
                                 [&](size_t, TaskTimer&)
                                 {
                                     MergeContext serial{};
                                     entry.function->mergeMany(target + entry.offset, sources,
                                                               serial);
                                 });
            }
        }
    }
    PhaseRecorder finalize(stats.phase(QueryPhase::kFinalize));
    Block result = emptyResult(plan);
    context.runTasks(finalize, 1,
                     [&](size_t, TaskTimer&)
                     { appendResults(*plan.layout, &target, 1, result, 0); });
    return result;
}

Block dispatch(const Plan& plan, const AggregationSettings& settings, QueryContext& context)
{
    switch (chooseKeyMethod(plan.key_types))
    {
        case KeyMethodKind::kNone:
            return aggregateWithoutKey(plan, settings, context);
        case KeyMethodKind::kFixed8:
            return aggregateByKey<FixedKeyMethod<uint8_t>>(plan, settings, context);
        case KeyMethodKind::kFixed16:
            return aggregateByKey<FixedKeyMethod<uint16_t>>(plan, settings, context);
        case KeyMethodKind::kNumber32:
            return aggregateByKey<NumberKeyMethod<uint32_t>>(plan, settings, context);
        case KeyMethodKind::kNumber64:
            return aggregateByKey<NumberKeyMethod<uint64_t>>(plan, settings, context);
        case KeyMethodKind::kPacked16:
            return aggregateByKey<PackedKeyMethod<2>>(plan, settings, context);
        case KeyMethodKind::kPacked32:
            return aggregateByKey<PackedKeyMethod<4>>(plan, settings, context);
        case KeyMethodKind::kString:
            return aggregateByKey<StringKeyMethod>(plan, settings, context);
        case KeyMethodKind::kSerialized:
            return aggregateByKey<SerializedKeyMethod>(plan, settings, context);
    }
    throw Exception(ErrorCode::kLogicalError, "unknown key method");
}

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
    Plan plan;
    plan.input = &input;
    for (const std::string& key : keys_)
    {
        const size_t column = resolveColumn(input, key, "GROUP BY");
        plan.key_columns.push_back(column);
        plan.key_types.push_back(input.columns()[column].type);
        plan.key_names.push_back(key);
    }
    std::vector<AggregateLayout::Entry> entries;
    DistinctSettings distinct = settings_.distinct;
    distinct.route_large_sets = settings_.partition_high_cardinality;
    for (const AggregateDescription& aggregate : aggregates_)
    {
        AggregateLayout::Entry entry;
        std::vector<AggregateArgument> arguments;
        for (const std::string& argument : aggregate.arguments)
        {
            const size_t column =
                resolveColumn(input, argument, "arguments of " + aggregate.function);
            entry.argument_columns.push_back(column);
            arguments.push_back({argument, input.columns()[column].type});
        }
        entry.function = createAggregateFunction(aggregate.function, arguments, distinct);
        entry.result_name =
            aggregate.result_name.empty() ? aggregate.function : aggregate.result_name;
        entries.push_back(std::move(entry));
    }
    plan.layout = std::make_unique<AggregateLayout>(std::move(entries));
    if (top != nullptr)
    {
        plan.top = resolveTop(*top, plan);
    }

    // GROUP BY one key with count(DISTINCT x) alone, both fixed-width: no sets to merge. A
    // single morsel has no merge to spare, only the plan's three rounds of 256 tasks to pay.
    const bool by_value_buckets =
        settings_.distinct.count_by_value_buckets && input.morsels() > 1 &&
        plan.key_columns.size() == 1 && !isString(plan.key_types[0]) && aggregates_.size() == 1 &&
        isDistinctCountName(aggregates_[0].function) &&
        !isString(input.columns()[plan.layout->entries()[0].argument_columns[0]].type);

    QueryStats& stats = context.stats();
    const ResourceSnapshot before = ResourceSnapshot::take();
    Block result;
    {
        ProfileEventsThreadScope events(context.profileEvents());
        result =
            by_value_buckets
                ? countDistinctByValueBuckets(
                      input, plan.key_columns[0], plan.layout->entries()[0].argument_columns[0],
                      plan.key_names[0], plan.layout->entries()[0].result_name, settings_, context)
                : dispatch(plan, settings_, context);
    }
    stats.resources = ResourceSnapshot::take() - before;
    stats.profile_events = context.profileEvents().snapshot();
    stats.result_rows = result.rows();
    stats.peak_memory_bytes = context.memory().peakBytes();
    return result;
}

}  // namespace granary
