#pragma once

// Building result columns from a table's groups: keys and finalized states, batch by batch,
// for a whole table, a bucket, a key range or only the groups a TopGroups request keeps.

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <vector>

#include "engine/aggregation/functions/state_result.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/inline_count.h"
#include "engine/aggregation/partial_aggregate.h"
#include "engine/columns/sort_permutation.h"
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

/// Groups whose results are written together: their states are prefetched while the batch
/// fills, and each function writes the batch in one call.
constexpr size_t kFinalizeBatchGroups = 256;

/// Appends the results of `count` groups (after the key columns) to `block`: finalized,
/// serialized, or both (the plan's AggregateOutput).
inline void appendResults(const GroupByPlan& plan, char* const* states, size_t count, Block& block,
                          size_t first_column)
{
    const auto& entries = plan.layout->entries();
    for (size_t i = 0; i < entries.size(); ++i)
    {
        Column& to = block.columns[first_column + i].column;
        if (plan.output == AggregateOutput::kStates)
        {
            appendSerializedStates(*entries[i].function, states, count, entries[i].offset, to);
            continue;
        }
        entries[i].function->insertResultsInto(states, count, entries[i].offset, to);
        if (plan.output == AggregateOutput::kResultsAndStates)
        {
            appendSerializedStates(*entries[i].function, states, count, entries[i].offset,
                                   block.columns[first_column + entries.size() + i].column);
        }
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

inline std::vector<Column> emptyKeys(const GroupByPlan& plan)
{
    std::vector<Column> keys;
    for (const DataType& type : plan.key_types)
    {
        keys.emplace_back(type);
    }
    return keys;
}

/// Asks for a batch's states before they are read: states of groups that a table met in
/// hash order lie anywhere in an arena larger than the caches (a partial's groups routed to
/// the merge's buckets), and a miss at a time took a top 10 over 1M groups 26 ms.
inline void prefetchStates(StatePointer* states, size_t count)
{
    for (size_t i = 0; i < count; ++i)
    {
        __builtin_prefetch(states[i]);
    }
}

/// Appends a batch of groups: their keys to `keys`, their results after the key columns of
/// `fragment`.
template <typename Method>
void appendGroups(const typename Method::Key* batch_keys, StatePointer* states, size_t count,
                  const GroupByPlan& plan, std::vector<Column>& keys, Block& fragment)
{
    prefetchStates(states, count);
    appendKeys<Method>(batch_keys, count, keys);
    appendResults(plan, states, count, fragment, keys.size());
}

/// Calls on_batch(keys, states, count) for the groups of `table` at `positions` (ascending,
/// in forEachGroupBatch order), a batch at a time.
template <typename Method, typename Table, typename OnBatch>
void forEachGroupBatchAt(Table& table, const AggregateLayout& layout,
                         const std::vector<uint32_t>& positions, OnBatch&& on_batch)
{
    std::vector<typename Method::Key> keys;
    std::vector<StatePointer> states;
    size_t position = 0;
    auto next = positions.begin();
    forEachGroupBatch<Method>(table, layout,
                              [&](const auto* batch_keys, StatePointer* batch_states, size_t count)
                              {
                                  keys.clear();
                                  states.clear();
                                  for (; next != positions.end() && *next < position + count;
                                       ++next)
                                  {
                                      keys.push_back(batch_keys[*next - position]);
                                      states.push_back(batch_states[*next - position]);
                                  }
                                  if (!keys.empty())
                                  {
                                      on_batch(keys.data(), states.data(), keys.size());
                                  }
                                  position += count;
                              });
}

/// The columns of a top request's order, for the groups a pass over the table delivers: the
/// key columns (filled only when the order names a key) and one column per ordered aggregate.
template <typename Method>
class TopOrderColumns
{
public:
    /// `first_only`: just the order's leading column (an aggregate).
    TopOrderColumns(const GroupByPlan& plan, bool first_only)
        : plan_(plan), keys_(emptyKeys(plan)), columns_(first_only ? 1 : plan.top->order.size())
    {
        const size_t key_count = plan.key_names.size();
        for (size_t k = 0; k < columns_.size(); ++k)
        {
            const size_t column = plan.top->order[k].first;
            orders_by_key_ = orders_by_key_ || column < key_count;
            if (column >= key_count)
            {
                columns_[k] =
                    Column(plan.layout->entries()[column - key_count].function->resultType());
            }
        }
    }

    void append(const typename Method::Key* batch_keys, StatePointer* states, size_t count)
    {
        prefetchStates(states, count);
        const size_t key_count = plan_.key_names.size();
        if (orders_by_key_)
        {
            appendKeys<Method>(batch_keys, count, keys_);
        }
        for (size_t k = 0; k < columns_.size(); ++k)
        {
            const size_t column = plan_.top->order[k].first;
            if (column >= key_count)
            {
                const AggregateLayout::Entry& entry = plan_.layout->entries()[column - key_count];
                entry.function->insertResultsInto(states, count, entry.offset, columns_[k]);
            }
        }
    }

    std::vector<SortKey> sortKeys() const
    {
        std::vector<SortKey> keys;
        for (size_t k = 0; k < columns_.size(); ++k)
        {
            const auto& [column, descending] = plan_.top->order[k];
            const size_t key_count = plan_.key_names.size();
            keys.push_back({(column < key_count ? keys_[column] : columns_[k]).view(), descending});
        }
        return keys;
    }

private:
    const GroupByPlan& plan_;
    std::vector<Column> keys_;
    std::vector<Column> columns_;
    bool orders_by_key_ = false;
};

/// The positions (in forEachGroupBatch order) of the first plan.top->rows groups of `table` in
/// the top request's order, ties in position order, sorted by position. Only the ordered
/// columns are computed; where an aggregate leads a longer order, first that one for every
/// group, then the rest for the groups that may still rank (topCandidates).
template <typename Method, typename Table>
std::vector<uint32_t> topGroupPositions(Table& table, const GroupByPlan& plan)
{
    const size_t key_count = plan.key_names.size();
    const auto& order = plan.top->order;
    const size_t rows = plan.top->rows;
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
    if (order.empty() || groups <= rows)
    {
        // LIMIT without ORDER BY, or no more groups than kept: the first groups, as the full
        // result's first rows would be, with nothing to sort.
        std::vector<uint32_t> first(std::min(groups, rows));
        std::iota(first.begin(), first.end(), 0);
        plan.unfinalized_groups += groups - first.size();
        return first;
    }
    const auto append_to = [](TopOrderColumns<Method>& columns)
    {
        return [&columns](const auto* batch_keys, StatePointer* states, size_t count)
        { columns.append(batch_keys, states, count); };
    };
    std::vector<uint32_t> kept;
    if (order.size() > 1 && order[0].first >= key_count && rows > 0)
    {
        TopOrderColumns<Method> leading(plan, true);
        forEachGroupBatch<Method>(table, *plan.layout, append_to(leading));
        const std::vector<uint32_t> candidates = topCandidates(leading.sortKeys()[0], groups, rows);
        TopOrderColumns<Method> columns(plan, false);
        forEachGroupBatchAt<Method>(table, *plan.layout, candidates, append_to(columns));
        kept = sortedPermutation(columns.sortKeys(), candidates.size(), rows);
        for (uint32_t& position : kept)
        {
            position = candidates[position];
        }
    }
    else
    {
        TopOrderColumns<Method> columns(plan, false);
        forEachGroupBatch<Method>(table, *plan.layout, append_to(columns));
        kept = sortedPermutation(columns.sortKeys(), groups, rows);
    }
    std::sort(kept.begin(), kept.end());
    plan.unfinalized_groups += groups - kept.size();
    return kept;
}

/// Finalizes only the groups of `table` that rank among the first plan.top->rows, in their
/// table order: a top-N over millions of groups computes the ordered columns for all of them
/// (a first pass over the table) and every other column (keys included, often long strings)
/// for N (a second pass, which picks them by position).
template <typename Method, typename Table>
Block finalizeTopGroups(Table& table, const GroupByPlan& plan)
{
    const std::vector<uint32_t> kept = topGroupPositions<Method>(table, plan);
    Block fragment = emptyResult(plan);
    std::vector<Column> key_columns = emptyKeys(plan);
    forEachGroupBatchAt<Method>(
        table, *plan.layout, kept,
        [&](const auto* keys, StatePointer* states, size_t count)
        { appendGroups<Method>(keys, states, count, plan, key_columns, fragment); });
    for (size_t k = 0; k < key_columns.size(); ++k)
    {
        fragment.columns[k].column = std::move(key_columns[k]);
    }
    return fragment;
}

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
