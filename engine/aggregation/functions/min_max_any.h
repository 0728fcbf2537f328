#pragma once

#include <string_view>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// State of min, max and any: the chosen value and whether there is one. String values are
/// copied into the partial's arena when chosen (the input block may go away).
template <typename T>
struct ChosenValueState
{
    T value{};
    bool has_value = false;
};

/// Which value a function keeps. `replaces(candidate, current)` is true when the candidate
/// should replace the current value.
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

/// min(x), max(x), any(x) for every column type: one template, the Keep policy decides.
template <typename T, typename Keep>
class ChosenValueFunction final
    : public AggregateFunctionBase<ChosenValueFunction<T, Keep>, ChosenValueState<T>>
{
    using State = ChosenValueState<T>;
    using Base = AggregateFunctionBase<ChosenValueFunction<T, Keep>, ChosenValueState<T>>;
    static constexpr bool kIsString = std::is_same_v<T, std::string_view>;

public:
    explicit ChosenValueFunction(TypeId type) : type_(type) {}

    std::string name() const override { return Keep::kName; }
    TypeId resultType() const override { return type_; }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena& arena)
    {
        T candidate;
        if constexpr (kIsString)
        {
            candidate = arguments[0].stringAt(row);
        }
        else
        {
            candidate = arguments[0].valueAt<T>(row);
        }
        if (!state.has_value || Keep::replaces(candidate, state.value))
        {
            if constexpr (kIsString)
            {
                candidate = arena.insert(candidate);
            }
            state.value = candidate;
            state.has_value = true;
        }
    }

    /// A chosen string stays in its partial's arena, which lives until the result is built.
    static void mergeStates(State& target, const State& source)
    {
        if (source.has_value && (!target.has_value || Keep::replaces(source.value, target.value)))
        {
            target = source;
        }
    }

    /// A chosen string is serialized as a flag and its bytes, not as the view of them.
    void serialize(const char* place, std::string& out) const override
    {
        if constexpr (kIsString)
        {
            const State& chosen = *std::launder(reinterpret_cast<const State*>(place));
            appendStateValue(out, static_cast<uint8_t>(chosen.has_value));
            appendStateString(out, chosen.value);
        }
        else
        {
            Base::serialize(place, out);
        }
    }
    void checkSerialized(std::string_view bytes) const override
    {
        if constexpr (kIsString)
        {
            StateReader reader(bytes, name());
            readString(reader);
            reader.expectEnd();
        }
        else
        {
            Base::checkSerialized(bytes);
        }
    }
    void mergeSerialized(char* place, std::string_view bytes, Arena& arena) const override
    {
        if constexpr (kIsString)
        {
            StateReader reader(bytes, name());
            State source = readString(reader);
            State& target = Base::state(place);
            if (source.has_value &&
                (!target.has_value || Keep::replaces(source.value, target.value)))
            {
                target.value = arena.insert(source.value);
                target.has_value = true;
            }
        }
        else
        {
            Base::mergeSerialized(place, bytes, arena);
        }
    }

    void insertResult(const State& state, Column& to) const
    {
        if constexpr (kIsString)
        {
            to.appendString(state.value);
        }
        else
        {
            to.append(state.value);
        }
    }

private:
    static State readString(StateReader& reader)
    {
        State state;
        state.has_value = reader.read<uint8_t>() != 0;
        state.value = reader.readString();
        return state;
    }

    TypeId type_;
};

}  // namespace granary
