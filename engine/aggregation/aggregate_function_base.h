#pragma once

#include <new>
#include <type_traits>

#include "engine/aggregation/aggregate_function.h"
#include "engine/aggregation/state_bytes.h"
#include "hashtables/prefetch.h"

namespace granary
{

/// Implements the state plumbing and the batch loops of AggregateFunction once, for a
/// function class Derived that provides:
///   static void add(State&, const ColumnView* arguments, size_t row, Arena&);
///   static void mergeStates(State& target, const State& source);
///   void insertResult(const State&, Column&) const;
/// and may provide its own create/addBatchSinglePlace when it can do better (a State without
/// a default constructor must provide create). A plain State (no pointer in it) is serialized
/// as its bytes; others override serialize, checkSerialized and mergeSerialized.
template <typename Derived, typename StateType>
class AggregateFunctionBase : public AggregateFunction
{
public:
    using State = StateType;

    size_t stateSize() const override { return sizeof(State); }
    size_t stateAlignment() const override { return alignof(State); }
    bool hasTrivialDestroy() const override { return std::is_trivially_destructible_v<State>; }

    void create(char* place, Arena& /*arena*/) const override
    {
        if constexpr (std::is_default_constructible_v<State>)
        {
            new (place) State();
        }
    }
    void destroy(char* place) const noexcept override { state(place).~State(); }

    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override
    {
        // Groups of a large table sit at random places in the arena: fetching the state of a
        // later row while this one is added overlaps their cache misses.
        for (size_t i = 0; i < count; ++i)
        {
            if (i + kPrefetchRowsAhead < count)
            {
                __builtin_prefetch(places[i + kPrefetchRowsAhead] + state_offset, 1);
            }
            Derived::add(state(places[i] + state_offset), arguments, first_row + i, arena);
        }
    }

    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena& arena) const override
    {
        State& target = state(place);
        for (size_t row = first_row; row < first_row + count; ++row)
        {
            Derived::add(target, arguments, row, arena);
        }
    }

    void merge(char* target, char* source, MergeContext& /*context*/) const override
    {
        Derived::mergeStates(state(target), state(source));
    }

    /// Calls the final class's merge directly, its own where it has one, so the loop has no
    /// virtual call.
    void mergeBatch(char* const* targets, char* const* sources, size_t count, size_t state_offset,
                    MergeContext& context) const override
    {
        const Derived& self = *static_cast<const Derived*>(this);
        for (size_t i = 0; i < count; ++i)
        {
            self.Derived::merge(targets[i] + state_offset, sources[i] + state_offset, context);
        }
    }

    void serialize(const char* place, std::string& out) const override
    {
        if constexpr (kPlainState)
        {
            appendStateValue(out, *std::launder(reinterpret_cast<const State*>(place)));
        }
        else
        {
            throw Exception(ErrorCode::kLogicalError, name() + " does not serialize its state");
        }
    }
    void checkSerialized(std::string_view bytes) const override
    {
        StateReader reader(bytes, name());
        if constexpr (kPlainState)
        {
            reader.template read<State>();
        }
        reader.expectEnd();
    }
    void mergeSerialized(char* place, std::string_view bytes, Arena&) const override
    {
        if constexpr (kPlainState)
        {
            StateReader reader(bytes, name());
            Derived::mergeStates(state(place), reader.template read<State>());
        }
    }

    void insertResultInto(char* place, Column& to) const override
    {
        static_cast<const Derived*>(this)->insertResult(state(place), to);
    }

    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override
    {
        const Derived& self = *static_cast<const Derived*>(this);
        for (size_t i = 0; i < count; ++i)
        {
            self.insertResult(state(places[i] + state_offset), to);
        }
    }

protected:
    static constexpr bool kPlainState =
        std::is_trivially_copyable_v<State> && std::is_default_constructible_v<State>;
    static State& state(char* place) { return *std::launder(reinterpret_cast<State*>(place)); }
};

}  // namespace granary
