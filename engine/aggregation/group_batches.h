#pragma once

// A table's groups batch by batch (keys and state pointers) and the appending of their keys
// and finalized or serialized states to result columns: the pieces every finalize shares.

#include <array>
#include <vector>

#include "engine/aggregation/functions/state_result.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/inline_count.h"
#include "engine/aggregation/partial_aggregate.h"

namespace granary
{

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

/// Pointers to the states of a batch of up to kFinalizeBatchGroups groups from their cells'
/// slots: the slots themselves, or for a lone count, which its slot holds (inline_count.h),
/// pointers to the counts copied out, valid until the next batch.
class BatchStates
{
public:
    explicit BatchStates(const AggregateLayout& layout) : lone_count_(layout.isLoneCount()) {}

    StatePointer* of(StatePointer* slots, size_t count)
    {
        return lone_count_ ? counts_.pointTo(slots, count) : slots;
    }

private:
    bool lone_count_;
    InlineCountStates<kFinalizeBatchGroups> counts_;
};

/// Calls on_batch(keys, states, count) for the groups of `table`, up to kFinalizeBatchGroups
/// at a time, with pointers to their states.
template <typename Method, typename Table, typename OnBatch>
void forEachGroupBatch(Table& table, const AggregateLayout& layout, OnBatch&& on_batch)
{
    BatchStates states(layout);
    forEachSlotBatch<Method>(table, [&](const auto* keys, StatePointer* slots, size_t count)
                             { on_batch(keys, states.of(slots, count), count); });
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

}  // namespace granary
