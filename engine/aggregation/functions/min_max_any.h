#pragma once

#include <algorithm>
#include <functional>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/functions/kept_value.h"

namespace granary
{

/// State of min, max, any and anyLast: the chosen value and whether there is one. String
/// values are copied into the partial's arena when chosen (the input block may go away).
template <typename T>
struct ChosenValueState
{
    T value{};
    /// A byte, not a bool: plain states are read back from bytes that may be damaged, and
    /// every byte value must make a valid object (any non-zero means a value is held).
    uint8_t has_value = 0;
};

/// Which value a function keeps. `replaces(candidate, current)` is true when the candidate
/// should replace the current value; a merge offers the source's value as the candidate.
struct KeepMinimum
{
    static constexpr const char* kName = "min";
    template <typename T>
    static bool replaces(const T& candidate, const T& current)
    {
        return candidate < current;
    }
};
struct KeepMaximum
{
    static constexpr const char* kName = "max";
    template <typename T>
    static bool replaces(const T& candidate, const T& current)
    {
        return current < candidate;
    }
};
struct KeepFirst
{
    static constexpr const char* kName = "any";
    template <typename T>
    static bool replaces(const T&, const T&)
    {
        return false;
    }
};
/// The last row seen; of two merged states, the source's (the later partial's).
struct KeepLast
{
    static constexpr const char* kName = "anyLast";
    template <typename T>
    static bool replaces(const T&, const T&)
    {
        return true;
    }
};

/// min(x), max(x), any(x), anyLast(x) for every column type: one template, the Keep policy
/// decides.
template <typename T, typename Keep>
class ChosenValueFunction final
    : public AggregateFunctionBase<ChosenValueFunction<T, Keep>, ChosenValueState<T>>
{
    using State = ChosenValueState<T>;
    using Base = AggregateFunctionBase<ChosenValueFunction<T, Keep>, ChosenValueState<T>>;

public:
    explicit ChosenValueFunction(TypeId type) : type_(type) {}

    std::string name() const override { return Keep::kName; }
    DataType resultType() const override { return type_; }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena& arena)
    {
        const T candidate = readValue<T>(arguments[0], row);
        if (!state.has_value || Keep::replaces(candidate, state.value))
        {
            state.value = keepValue(candidate, arena);
            state.has_value = true;
        }
    }

    /// anyLast: of a batch's rows only each state's last one counts, so a state copies at most
    /// one string per batch into the arena instead of one per row.
    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override
    {
        if constexpr (std::is_same_v<Keep, KeepLast> && kIsStringValue<T>)
        {
            std::vector<uint32_t> rows(count);
            std::iota(rows.begin(), rows.end(), 0);
            // By state, rows of one state in their order: the last of each run is its last row.
            std::stable_sort(rows.begin(), rows.end(),
                             [&](uint32_t a, uint32_t b)
                             { return std::less<>()(places[a], places[b]); });
            for (size_t i = 0; i < count; ++i)
            {
                if (i + 1 == count || places[rows[i + 1]] != places[rows[i]])
                {
                    add(Base::state(places[rows[i]] + state_offset), arguments, first_row + rows[i],
                        arena);
                }
            }
        }
        else
        {
            Base::addBatch(arguments, first_row, count, places, state_offset, arena);
        }
    }
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena& arena) const override
    {
        if constexpr (std::is_same_v<Keep, KeepLast>)
        {
            if (count > 0)
            {
                add(Base::state(place), arguments, first_row + count - 1, arena);
            }
        }
        else
        {
            Base::addBatchSinglePlace(arguments, first_row, count, place, arena);
        }
    }

    /// A chosen string stays in its partial's arena, which lives until the result is built.
    static void mergeStates(State& target, const State& source)
    {
        if (takes(target, source))
        {
            target = source;
        }
    }

    /// A chosen string is serialized as a flag and its bytes, not as the view of them.
    void writeState(const State& chosen, std::string& out) const requires kIsStringValue<T>
    {
        appendStateValue(out, static_cast<uint8_t>(chosen.has_value));
        appendStateField(out, chosen.value);
    }
    State readState(StateReader& reader) const requires kIsStringValue<T>
    {
        State state;
        state.has_value = reader.read<uint8_t>() != 0;
        state.value = readStateField<T>(reader);
        return state;
    }
    void mergeReadState(State& target, const State& source,
                        Arena& arena) const requires kIsStringValue<T>
    {
        if (takes(target, source))
        {
            target.value = keepValue(source.value, arena);
            target.has_value = true;
        }
    }

    void insertResult(const State& state, Column& to) const { appendResultValue(to, state.value); }

private:
    /// Whether merging `source` into `target` takes the source's value.
    static bool takes(const State& target, const State& source)
    {
        return source.has_value &&
               (!target.has_value || Keep::replaces(source.value, target.value));
    }

    TypeId type_;
};

}  // namespace granary
