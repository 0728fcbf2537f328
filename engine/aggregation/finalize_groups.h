#pragma once

// Building result columns from a table's groups: keys and finalized states, batch by batch,
// for a whole table, a bucket, a key range or only the groups a TopGroups request keeps.

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/aggregation/group_batches.h"
#include "engine/aggregation/top_groups.h"
#include "engine/exec/first_touch.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// Buckets of a two-level table, and the number of key ranges a direct-mapped table is split
/// into for merging and finalizing (at most): one task each.
inline constexpr size_t kMergeBuckets = 256;

/// Groups of a direct-mapped table per finalize task, about: a few thousand results are
/// ~0.1 ms of work, more than a task costs; a table of a dozen groups (AdvEngineID) is then
/// finalized by one task instead of 256, with one fragment to join instead of 256.
inline constexpr size_t kFinalizeGroupsPerTask = 4096;

/// Builds a fragment of the result from the groups of one table (or bucket, or key range).
template <typename Method, typename Table>
Block finalizeGroups(Table& table, const GroupByPlan& plan)
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

/// No String or nested (Array: topK, quantiles) column: every row has the same bytes.
inline bool allFixedWidth(const Block& block)
{
    return std::all_of(block.columns.begin(), block.columns.end(),
                       [](const Block::Entry& entry)
                       { return fixedWidth(entry.column.type()) != 0; });
}

/// Whether some aggregate's result may be NULL (the in-place finalize writes values only).
inline bool mayHoldNulls(const GroupByPlan& plan)
{
    const auto& entries = plan.layout->entries();
    return std::any_of(entries.begin(), entries.end(),
                       [](const AggregateLayout::Entry& entry)
                       { return entry.function->resultMayBeNull(); });
}

/// Writes the groups of `table` to rows [row, row + table.size()) of `result`, whose columns
/// are fixed-width and already sized, through a batch-sized scratch fragment that stays in
/// cache: no fragment of the table's size to allocate, fault in and copy again.
template <typename Method, typename Table>
void finalizeGroupsInto(Table& table, const GroupByPlan& plan, Block& result, size_t row)
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
Block finalizeInPlace(TwoLevelTable& table, const GroupByPlan& plan, Block result,
                      QueryContext& context)
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

}  // namespace granary
