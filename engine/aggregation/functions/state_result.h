#pragma once

#include <memory>
#include <string>

#include "engine/aggregation/functions/wrapped_function.h"

namespace granary
{

/// Appends the serialized states of `count` groups of `function` (the state of group i at
/// places[i] + state_offset) to the String column `to`: what fState returns and what a partial
/// result (GroupByOperator::finish emitting states) holds.
inline void appendSerializedStates(const AggregateFunction& function, char* const* places,
                                   size_t count, size_t state_offset, Column& to)
{
    std::string bytes;
    for (size_t i = 0; i < count; ++i)
    {
        bytes.clear();
        function.serialize(places[i] + state_offset, bytes);
        to.appendString(bytes);
    }
}

/// ClickHouse's -State combinator: the result of each group is its state in the partial-state
/// format (a String: AggregateFunction(f, T...) in a table), which fMerge folds back in later,
/// in another query or another process.
class StateResultFunction final : public WrappedAggregateFunction
{
public:
    /// `state_type`: AggregateFunction(f, T...), the type of the states `inner` makes.
    StateResultFunction(std::shared_ptr<const AggregateFunction> inner, DataType state_type)
        : WrappedAggregateFunction(std::move(inner)), state_type_(std::move(state_type))
    {
    }

    std::string name() const override { return inner_->name() + "State"; }
    DataType resultType() const override { return state_type_; }
    bool resultMayBeNull() const override { return false; }

    void insertResultInto(char* state, Column& to) const override
    {
        appendSerializedStates(*inner_, &state, 1, 0, to);
    }
    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override
    {
        appendSerializedStates(*inner_, places, count, state_offset, to);
    }

private:
    DataType state_type_;
};

}  // namespace granary
