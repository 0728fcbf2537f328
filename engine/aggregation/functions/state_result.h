#pragma once

#include <memory>
#include <string>

#include "engine/aggregation/functions/wrapped_function.h"

namespace granary
{

/// ClickHouse's -State combinator: the result of each group is its state in the partial-state
/// format (a String: AggregateFunction(f, T...) in a table), which fMerge folds back in later,
/// in another query or another process.
class StateResultFunction final : public WrappedAggregateFunction
{
public:
    explicit StateResultFunction(std::shared_ptr<const AggregateFunction> inner)
        : WrappedAggregateFunction(std::move(inner))
    {
    }

    std::string name() const override { return inner_->name() + "State"; }
    DataType resultType() const override { return TypeId::String; }
    bool resultMayBeNull() const override { return false; }

    void insertResultInto(char* state, Column& to) const override
    {
        std::string bytes;
        inner_->serialize(state, bytes);
        to.appendString(bytes);
    }
    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override
    {
        std::string bytes;
        for (size_t i = 0; i < count; ++i)
        {
            bytes.clear();
            inner_->serialize(places[i] + state_offset, bytes);
            to.appendString(bytes);
        }
    }
};

}  // namespace granary
