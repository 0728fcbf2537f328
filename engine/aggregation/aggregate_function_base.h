#pragma once

#include <concepts>
#include <new>
#include <string>
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
/// as its bytes; a State holding pointers (strings in an arena, a summary on the heap) has
/// Derived provide its fields' format instead:
///   void writeState(const State&, std::string& out) const;
///   State readState(StateReader&) const;  // checks as it reads; may view into the bytes
///   void mergeReadState(State& target, const State& source, Arena&) const;  // copies what it
///   keeps
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
        addRows<false>(arguments, first_row, count, places, state_offset, 0, arena);
    }

    void addBatchMarking(const ColumnView* arguments, size_t first_row, size_t count,
                         char* const* places, size_t state_offset, size_t mark_offset,
                         Arena& arena) const override
    {
        // A function with a batch loop of its own (min's skipped rows, uniqExact's batched
        // inserts) keeps it, and its marks take a second pass.
        constexpr bool kOwnBatchLoop = !std::is_same_v<decltype(&Derived::addBatch),
                                                       decltype(&AggregateFunctionBase::addBatch)>;
        if constexpr (kOwnBatchLoop)
        {
            AggregateFunction::addBatchMarking(arguments, first_row, count, places, state_offset,
                                               mark_offset, arena);
        }
        else
        {
            addRows<true>(arguments, first_row, count, places, state_offset, mark_offset, arena);
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

    /// The final class's addBatchSinglePlace per run, without a virtual call per run.
    void addRuns(const ColumnView* arguments, size_t first_row, const uint32_t* run_starts,
                 size_t runs, char* const* places, size_t state_offset, Arena& arena) const override
    {
        for (size_t r = 0; r < runs; ++r)
        {
            self().Derived::addBatchSinglePlace(arguments, first_row + run_starts[r],
                                                run_starts[r + 1] - run_starts[r],
                                                places[r] + state_offset, arena);
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
        for (size_t i = 0; i < count; ++i)
        {
            self().Derived::merge(targets[i] + state_offset, sources[i] + state_offset, context);
        }
    }

    void serialize(const char* place, std::string& out) const override
    {
        const State& source = *std::launder(reinterpret_cast<const State*>(place));
        if constexpr (hasStateFormat())
        {
            self().writeState(source, out);
        }
        else if constexpr (kPlainState)
        {
            appendStateValue(out, source);
        }
        else
        {
            throw Exception(ErrorCode::kLogicalError, name() + " does not serialize its state");
        }
    }
    void checkSerialized(std::string_view bytes) const override
    {
        StateReader reader(bytes, name());
        readSerialized(reader);
        reader.expectEnd();
    }
    void mergeSerialized(char* place, std::string_view bytes, Arena& arena) const override
    {
        StateReader reader(bytes, name());
        const State source = readSerialized(reader);
        reader.expectEnd();
        if constexpr (hasStateFormat())
        {
            self().mergeReadState(state(place), source, arena);
        }
        else
        {
            Derived::mergeStates(state(place), source);
        }
    }

    void insertResultInto(char* place, Column& to) const override
    {
        self().insertResult(state(place), to);
    }

    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override
    {
        for (size_t i = 0; i < count; ++i)
        {
            self().insertResult(state(places[i] + state_offset), to);
        }
    }

protected:
    static constexpr bool kPlainState =
        std::is_trivially_copyable_v<State> && std::is_default_constructible_v<State>;
    /// Whether Derived gives its state's fields a format (a function: Derived is complete only
    /// where the member functions are instantiated).
    static constexpr bool hasStateFormat()
    {
        return requires(const Derived& function, const State& source, State& target,
                        std::string& out, StateReader& reader, Arena& arena)
        {
            function.writeState(source, out);
            {
                function.readState(reader)
                } -> std::same_as<State>;
            function.mergeReadState(target, source, arena);
        };
    }
    static State& state(char* place) { return *std::launder(reinterpret_cast<State*>(place)); }

private:
    const Derived& self() const { return *static_cast<const Derived*>(this); }
    /// Row first_row + i into the state at places[i] + state_offset (and, `Mark`, 1 into the
    /// byte at places[i] + mark_offset). Groups of a large table sit at random places in the
    /// arena: fetching the state of a later row while this one is added overlaps their misses.
    template <bool Mark>
    void addRows(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                 size_t state_offset, size_t mark_offset, Arena& arena) const
    {
        for (size_t i = 0; i < count; ++i)
        {
            if (i + kPrefetchRowsAhead < count)
            {
                __builtin_prefetch(places[i + kPrefetchRowsAhead] + state_offset, 1);
            }
            Derived::add(state(places[i] + state_offset), arguments, first_row + i, arena);
            if constexpr (Mark)
            {
                places[i][mark_offset] = 1;
            }
        }
    }
    State readSerialized(StateReader& reader) const
    {
        if constexpr (hasStateFormat())
        {
            return self().readState(reader);
        }
        else if constexpr (kPlainState)
        {
            return reader.template read<State>();
        }
        else
        {
            throw Exception(ErrorCode::kLogicalError, name() + " does not serialize its state");
        }
    }
};

}  // namespace granary
