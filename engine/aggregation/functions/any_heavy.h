#pragma once

#include <cstdint>
#include <string_view>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/functions/kept_value.h"

namespace granary
{

/// State of anyHeavy: the candidate of the Misra–Gries heavy-hitters algorithm with one
/// counter (Boyer and Moore's majority vote) and its weight, the rows that voted for it less
/// those that voted against. A value in more than half of the rows is the candidate at the
/// end, whatever the order of rows and merges. String candidates are views of bytes in the
/// partial's arena.
template <typename T>
struct HeavyHitterState
{
    T value{};
    uint64_t weight = 0;
    /// A byte, not a bool: plain states are read back from bytes that may be damaged, and
    /// every byte value must make a valid object (any non-zero means a value is held).
    uint8_t has_value = 0;
};

/// anyHeavy(x) for every column type: a frequently occurring value (the majority value where
/// there is one).
template <typename T>
class AnyHeavyFunction final
    : public AggregateFunctionBase<AnyHeavyFunction<T>, HeavyHitterState<T>>
{
    using State = HeavyHitterState<T>;
    using Base = AggregateFunctionBase<AnyHeavyFunction<T>, State>;

public:
    explicit AnyHeavyFunction(TypeId type) : type_(type) {}

    std::string name() const override { return "anyHeavy"; }
    DataType resultType() const override { return type_; }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena& arena)
    {
        const T candidate = readValue<T>(arguments[0], row);
        if (state.has_value && state.value == candidate)
        {
            ++state.weight;
        }
        else if (state.weight > 0)
        {
            --state.weight;
        }
        else
        {
            state.value = keepValue(candidate, arena);
            state.weight = 1;
            state.has_value = true;
        }
    }

    /// A candidate string stays in its partial's arena, which lives until the result is built.
    static void mergeStates(State& target, const State& source)
    {
        if (mergeWeights(target, source))
        {
            target.value = source.value;
        }
    }

    /// A flag, the weight and the candidate's bytes.
    void writeState(const State& state, std::string& out) const requires kIsStringValue<T>
    {
        appendStateValue(out, static_cast<uint8_t>(state.has_value));
        appendStateValue(out, state.weight);
        appendStateField(out, state.value);
    }
    State readState(StateReader& reader) const requires kIsStringValue<T>
    {
        State state;
        state.has_value = reader.read<uint8_t>() != 0;
        state.weight = reader.read<uint64_t>();
        state.value = readStateField<T>(reader);
        return state;
    }
    void mergeReadState(State& target, const State& source,
                        Arena& arena) const requires kIsStringValue<T>
    {
        if (mergeWeights(target, source))
        {
            target.value = keepValue(source.value, arena);
        }
    }

    void insertResult(const State& state, Column& to) const { appendResultValue(to, state.value); }

private:
    /// Folds the votes of `source` into `target`: equal candidates add their weights,
    /// different ones cancel, the heavier one staying. True when the source's candidate wins
    /// (the caller copies it).
    static bool mergeWeights(State& target, const State& source)
    {
        if (!source.has_value)
        {
            return false;
        }
        if (!target.has_value)
        {
            target.weight = source.weight;
            target.has_value = true;
            return true;
        }
        if (target.value == source.value)
        {
            target.weight += source.weight;
            return false;
        }
        if (source.weight > target.weight)
        {
            target.weight = source.weight - target.weight;
            return true;
        }
        target.weight -= source.weight;
        return false;
    }
    TypeId type_;
};

}  // namespace granary
