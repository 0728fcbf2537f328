#pragma once

// A top request (ORDER BY ... LIMIT n over GROUP BY): finalizing only the groups that rank
// among the first n, found in one pass over the table that keeps a bounded pool of candidates.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/aggregation/group_batches.h"
#include "engine/columns/gather.h"
#include "engine/columns/sort_permutation.h"

namespace granary
{

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

    /// Keeps only rows `rows` (ascending), in that order.
    void keep(const std::vector<uint32_t>& rows)
    {
        const auto keep_in = [&](Column& column)
        {
            Column kept = column.emptyLike();
            gatherRows(column.view(), 0, rows, kept);
            column = std::move(kept);
        };
        if (orders_by_key_)
        {
            std::for_each(keys_.begin(), keys_.end(), keep_in);
        }
        const size_t key_count = plan_.key_names.size();
        for (size_t k = 0; k < columns_.size(); ++k)
        {
            if (plan_.top->order[k].first >= key_count)
            {
                keep_in(columns_[k]);
            }
        }
    }

    /// The values of the order's leading column, where that is an aggregate.
    const Column& leadingAggregate() const { return columns_.front(); }

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

/// The groups of a table that may still rank among a top request's first plan.top->rows, taken
/// batch by batch from one pass over the table: their keys, state slots and ordered columns, in
/// the order the pass met them. Whenever the pool reaches a cut size it keeps only its best
/// (ties in pass order, as in a sort of the whole table), so that a top 10 over a million groups
/// holds a few hundred, not a million, and the kept groups are finalized from the pool with no
/// second pass over the table. Where an aggregate leads the order, the worst value of it that
/// the last cut kept bounds the groups let in: a later group whose value comes after it cannot
/// rank, nor one that ties with it where the aggregate is the whole order (the kept ones all
/// come before it or tie, and were met first), so most groups cost one comparison. Where an
/// aggregate leads a longer order, the pool holds that aggregate only and keeps every group no
/// worse than the limit-th (topCandidates); the rest of the order (keys: often long strings) is
/// computed at the end for those alone.
template <typename Method>
class TopGroupPool
{
public:
    using Key = typename Method::Key;

    explicit TopGroupPool(const GroupByPlan& plan)
        : plan_(plan),
          limit_(plan.top->rows),
          leading_aggregate_(!plan.top->order.empty() &&
                             plan.top->order[0].first >= plan.key_names.size() && limit_ > 0),
          leading_only_(leading_aggregate_ && plan.top->order.size() > 1),
          columns_(plan, leading_only_),
          states_(*plan.layout),
          cut_rows_(limit_ > SIZE_MAX / kCutRowsPerKeptRow
                        ? SIZE_MAX
                        : std::max(kCutRowsPerKeptRow * limit_, kMinCutRows))
    {
    }

    /// Adds a batch of at most kFinalizeBatchGroups groups as forEachSlotBatch delivers them.
    template <typename BatchKey>
    void append(const BatchKey* keys, StatePointer* slots, size_t count)
    {
        const size_t first = keys_.size();
        if (bound_value_)
        {
            selectAheadOfBound(slots, count);
            for (const uint32_t row : selected_)
            {
                keys_.push_back(keys[row]);
                slots_.push_back(slots[row]);
            }
        }
        else
        {
            keys_.insert(keys_.end(), keys, keys + count);
            slots_.insert(slots_.end(), slots, slots + count);
        }
        const size_t added = keys_.size() - first;
        columns_.append(keys_.data() + first, states_.of(slots_.data() + first, added), added);
        seen_ += count;
        if (keys_.size() >= cut_rows_)
        {
            cut();
        }
    }

    /// Leaves the pool with the first plan.top->rows groups of the order, in pass order, and
    /// counts the groups left out in plan.unfinalized_groups.
    void finish()
    {
        if (leading_only_)
        {
            cut();
            TopOrderColumns<Method> whole(plan_, false);
            forEachBatch([&](const Key* keys, StatePointer* states, size_t count)
                         { whole.append(keys, states, count); });
            keep(best(whole));
        }
        else
        {
            keep(best(columns_));
        }
        plan_.unfinalized_groups += seen_ - keys_.size();
    }

    /// Calls on_batch(keys, states, count) for the pool's groups, kFinalizeBatchGroups at a
    /// time.
    template <typename OnBatch>
    void forEachBatch(OnBatch&& on_batch)
    {
        for (size_t first = 0; first < keys_.size(); first += kFinalizeBatchGroups)
        {
            const size_t count = std::min(kFinalizeBatchGroups, keys_.size() - first);
            on_batch(keys_.data() + first, states_.of(slots_.data() + first, count), count);
        }
    }

private:
    /// The pool is cut when it holds this many times the rows kept, or kMinCutRows if more: a
    /// cut costs a partial sort of the pool, so between cuts the pool grows by several times
    /// what a cut keeps.
    static constexpr size_t kCutRowsPerKeptRow = 4;
    /// Two batches at least: cuts of a few rows each would cost more in calls than in sorting.
    /// The first cut sets the bound that keeps most later groups out.
    static constexpr size_t kMinCutRows = 2 * kFinalizeBatchGroups;

    /// The first limit_ rows of the order of `columns` (the pool's rows), in pass order.
    std::vector<uint32_t> best(const TopOrderColumns<Method>& columns) const
    {
        return firstRowsInRowOrder(columns.sortKeys(), keys_.size(), limit_);
    }

    /// Keeps the rows that may still rank: the best limit_, or with a leading aggregate every
    /// row no worse than the limit-th there; then bounds the groups let in by the worst leading
    /// value kept. Ties at that boundary (counts of 1 in a top by count, then key) may keep
    /// most of the pool: the next cut then waits until it doubled.
    void cut()
    {
        if (keys_.size() > limit_)
        {
            keep(leading_only_ ? topCandidates(columns_.sortKeys().front(), keys_.size(), limit_)
                               : best(columns_));
            if (leading_aggregate_)
            {
                setBound();
            }
        }
        cut_rows_ = std::max(cut_rows_, 2 * keys_.size());
    }

    /// Copies the pool's last leading value in the order into bound_value_ (none where that
    /// column cannot bound: NULLs, nested values).
    void setBound()
    {
        const std::optional<uint32_t> last = lastInOrder(columns_.sortKeys().front(), keys_.size());
        if (!last)
        {
            bound_value_.reset();
            return;
        }
        const Column& leading = columns_.leadingAggregate();
        bound_value_ = leading.emptyLike();
        batch_values_ = leading.emptyLike();
        const uint32_t rows[] = {*last};
        gatherRows(leading.view(), 0, rows, *bound_value_);
    }

    /// Sets selected_ to the rows of a batch whose leading aggregate may still rank against
    /// the bound.
    void selectAheadOfBound(StatePointer* slots, size_t count)
    {
        const auto& [column, descending] = plan_.top->order.front();
        const AggregateLayout::Entry& entry =
            plan_.layout->entries()[column - plan_.key_names.size()];
        StatePointer* states = states_.of(slots, count);
        prefetchStates(states, count);
        batch_values_.clear();
        entry.function->insertResultsInto(states, count, entry.offset, batch_values_);
        // A tie with the bound ranks only where later order columns may put it ahead; with the
        // aggregate alone, the limit_ kept rows come first.
        rowsAheadOf(batch_values_.view(), descending, bound_value_->view(), 0, leading_only_,
                    selected_);
    }

    void keep(const std::vector<uint32_t>& rows)
    {
        for (size_t i = 0; i < rows.size(); ++i)
        {
            keys_[i] = keys_[rows[i]];
            slots_[i] = slots_[rows[i]];
        }
        keys_.resize(rows.size());
        slots_.resize(rows.size());
        columns_.keep(rows);
    }

    const GroupByPlan& plan_;
    size_t limit_;
    /// The order is led by an aggregate: cuts bound the groups let in.
    bool leading_aggregate_;
    /// ...and goes on: the pool holds the leading aggregate only.
    bool leading_only_;
    TopOrderColumns<Method> columns_;
    BatchStates states_;
    std::vector<Key> keys_;
    std::vector<StatePointer> slots_;
    size_t seen_ = 0;
    size_t cut_rows_;
    /// Set by a cut: one row, the leading aggregate after which no group can rank.
    std::optional<Column> bound_value_;
    /// A batch's leading aggregate, compared with the bound; one column reused batch after
    /// batch.
    Column batch_values_;
    std::vector<uint32_t> selected_;
};

/// Finalizes only the groups of `table` that rank among the first plan.top->rows, in their
/// table order: one pass over the table computes the ordered columns of every group into a
/// pool that keeps the candidates (TopGroupPool), and every other column (keys included, often
/// long strings) is computed for the N kept.
template <typename Method, typename Table>
Block finalizeTopGroups(Table& table, const GroupByPlan& plan)
{
    TopGroupPool<Method> pool(plan);
    forEachSlotBatch<Method>(table, [&](const auto* keys, StatePointer* slots, size_t count)
                             { pool.append(keys, slots, count); });
    pool.finish();
    Block fragment = emptyResult(plan);
    std::vector<Column> key_columns = emptyKeys(plan);
    pool.forEachBatch([&](const auto* keys, StatePointer* states, size_t count)
                      { appendGroups<Method>(keys, states, count, plan, key_columns, fragment); });
    for (size_t k = 0; k < key_columns.size(); ++k)
    {
        fragment.columns[k].column = std::move(key_columns[k]);
    }
    return fragment;
}

}  // namespace granary
