#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "alloc/arena.h"
#include "engine/aggregation/aggregate_layout.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/key_methods.h"
#include "hashtables/batch.h"

namespace granary
{

/// Rows whose keys are extracted, emplaced and aggregated together: the keys and state
/// pointers of a batch stay in L1/L2.
inline constexpr size_t kAggregationBatchRows = 1024;

/// The state pointer of an emplace result: a cell (fixed-width tables) or the mapped value
/// itself (string tables).
template <typename Cell>
StatePointer& mappedOf(Cell* cell)
{
    return cell->mapped();
}
inline StatePointer& mappedOf(StatePointer* mapped)
{
    return *mapped;
}

/// Calls f(key, state) for every group of a table of any kind.
template <typename Table, typename F>
void forEachGroup(Table& table, F&& f)
{
    if constexpr (requires { table.forEachCell([](auto&) {}); })
    {
        table.forEachCell([&](auto& cell) { f(cell.key(), cell.mapped()); });
    }
    else
    {
        table.forEach(f);
    }
}

/// Folds the groups of `source` into `target` (same table kind): new keys take over the
/// source's states, existing ones merge them. String keys keep pointing into the source's
/// arena, which lives until the result is built, so no arena is shared between threads.
template <typename Table, typename Source>
void mergeGroups(Table& target, const Source& source, const AggregateLayout& layout,
                 MergeContext& context)
{
    auto merge_states = [&](StatePointer& into, StatePointer from)
    { layout.mergeStates(into, from, context); };
    if constexpr (requires { target.merge(source, merge_states, nullptr); })
    {
        target.merge(source, merge_states, nullptr);
    }
    else
    {
        mergeTables(target, source, merge_states);
    }
}

/// One worker's local state in a GROUP BY: its hash table (single-level until it passes the
/// two-level thresholds), its arena of keys and states, and the states it must destroy.
template <typename Method>
class PartialAggregate
{
public:
    using Key = typename Method::Key;
    using Single = typename Method::Single;

    /// `key_columns`: positions of the keys among each morsel's columns.
    PartialAggregate(const AggregateLayout& layout, std::vector<size_t> key_columns,
                     const AggregationSettings& settings)
        : layout_(layout),
          settings_(settings),
          key_columns_(std::move(key_columns)),
          single_(Method::makeSingle(&arena_)),
          keys_(kAggregationBatchRows),
          places_(kAggregationBatchRows)
    {
    }

    ~PartialAggregate()
    {
        for (char* place : owned_states_)
        {
            layout_.destroyStates(place);
        }
    }

    PartialAggregate(const PartialAggregate&) = delete;
    PartialAggregate& operator=(const PartialAggregate&) = delete;

    /// Aggregates the `count` rows of a morsel's `columns`.
    void aggregate(const std::vector<ColumnView>& columns, size_t count)
    {
        std::vector<ColumnView> keys;
        for (size_t column : key_columns_)
        {
            keys.push_back(columns[column]);
        }
        typename Method::Extractor extractor(keys);
        for (size_t begin = 0; begin < count; begin += kAggregationBatchRows)
        {
            const size_t rows = std::min(kAggregationBatchRows, count - begin);
            extractor.extract(begin, rows, keys_.data());
            if constexpr (Method::kHasTwoLevel)
            {
                if (two_level_)
                {
                    emplaceRows(*two_level_, rows);
                }
                else
                {
                    emplaceRows(*single_, rows);
                }
            }
            else
            {
                emplaceRows(*single_, rows);
            }
            layout_.addBatch(columns.data(), begin, rows, places_.data(), arena_);
            rows_ += rows;
            convertIfLarge();
        }
    }

    bool isTwoLevel() const
    {
        if constexpr (Method::kHasTwoLevel)
        {
            return two_level_ != nullptr;
        }
        return false;
    }

    size_t size() const
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_)
            {
                return two_level_->size();
            }
        }
        return single_->size();
    }

    size_t rows() const { return rows_; }
    Arena& arena() { return arena_; }

    /// What this partial holds: its table's cell arrays and its arena's chunks (keys, states).
    size_t memoryBytes() const
    {
        size_t table_bytes = single_ ? single_->bufferBytes() : 0;
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_)
            {
                table_bytes += two_level_->bufferBytes();
            }
        }
        return table_bytes + arena_.bytesReserved();
    }
    Single& single() { return *single_; }

    void convertToTwoLevel()
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (!two_level_)
            {
                two_level_ = Method::convert(*single_, &arena_);
                single_.reset();
                ++conversions_;
            }
        }
    }
    size_t conversions() const { return conversions_; }

    auto& twoLevel() requires Method::kHasTwoLevel { return *two_level_; }

private:
    template <typename Table>
    void emplaceRows(Table& table, size_t rows)
    {
        emplaceBatch(table, keys_.data(), rows,
                     [&](auto result, bool inserted, size_t i)
                     {
                         StatePointer& state = mappedOf(result);
                         if (inserted)
                         {
                             state = layout_.createStates(arena_);
                             if (layout_.hasNonTrivialDestroy())
                             {
                                 owned_states_.push_back(state);
                             }
                         }
                         places_[i] = state;
                     });
    }

    void convertIfLarge()
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (!two_level_ && (single_->size() > settings_.group_by_two_level_threshold ||
                                single_->bufferBytes() + arena_.bytesUsed() >
                                    settings_.group_by_two_level_threshold_bytes))
            {
                convertToTwoLevel();
            }
        }
    }

    /// The two-level table type of methods that have one (a placeholder otherwise).
    template <typename M, bool = M::kHasTwoLevel>
    struct TwoLevelOf
    {
        using type = typename M::TwoLevel;
    };
    template <typename M>
    struct TwoLevelOf<M, false>
    {
        using type = Single;
    };

    const AggregateLayout& layout_;
    const AggregationSettings& settings_;
    std::vector<size_t> key_columns_;
    Arena arena_;
    std::unique_ptr<Single> single_;
    std::unique_ptr<typename TwoLevelOf<Method>::type> two_level_;
    std::vector<char*> owned_states_;
    std::vector<Key> keys_;
    std::vector<StatePointer> places_;
    size_t rows_ = 0;
    size_t conversions_ = 0;
};

/// One worker's state without GROUP BY keys: a single group.
class PartialAggregateWithoutKey
{
public:
    explicit PartialAggregateWithoutKey(const AggregateLayout& layout)
        : layout_(layout), state_(layout.createStates(arena_))
    {
    }
    ~PartialAggregateWithoutKey() { layout_.destroyStates(state_); }
    PartialAggregateWithoutKey(const PartialAggregateWithoutKey&) = delete;
    PartialAggregateWithoutKey& operator=(const PartialAggregateWithoutKey&) = delete;

    void aggregate(const std::vector<ColumnView>& columns, size_t count)
    {
        layout_.addBatchSinglePlace(columns.data(), 0, count, state_, arena_);
        rows_ += count;
    }
    char* state() { return state_; }
    size_t rows() const { return rows_; }

private:
    const AggregateLayout& layout_;
    Arena arena_;
    char* state_;
    size_t rows_ = 0;
};

}  // namespace granary
