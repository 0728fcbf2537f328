#pragma once

#include <bit>
#include <memory>
#include <string>
#include <type_traits>

#include "engine/aggregation/distinct_set.h"
#include "engine/aggregation/functions/wrapped_function.h"

namespace granary
{

/// The -Distinct combinator, fDistinct(x) (sumDistinct, avgDistinct...): f over the distinct
/// values of x. The state is uniqExact's set (its adds, merges, parallel merges and partial
/// states), and only the result differs: the set's values are fed to f once, at finalize.
/// `T` is the argument's type (std::string_view for strings), `Traits` its set kind.
template <typename T, typename Traits>
class DistinctCombinator final : public WrappedAggregateFunction
{
public:
    /// `set`: uniqExact over the argument; `aggregate`: f over one column of its type.
    DistinctCombinator(std::shared_ptr<const AggregateFunction> set,
                       std::shared_ptr<const AggregateFunction> aggregate, TypeId argument_type)
        : WrappedAggregateFunction(std::move(set)),
          aggregate_(std::move(aggregate)),
          argument_type_(argument_type)
    {
    }

    std::string name() const override { return aggregate_->name() + "Distinct"; }
    DataType resultType() const override { return aggregate_->resultType(); }
    bool resultMayBeNull() const override { return aggregate_->resultMayBeNull(); }

    void insertResultInto(char* state, Column& to) const override
    {
        const auto& set = *std::launder(reinterpret_cast<const DistinctSet<Traits>*>(state));
        Column values(argument_type_);
        set.forEachValue([&](typename Traits::Key key) { appendValue(key, values); });
        Arena arena;
        char* result_state =
            arena.alignedAlloc(aggregate_->stateSize(), aggregate_->stateAlignment());
        aggregate_->create(result_state, arena);
        const ColumnView view = values.view();
        aggregate_->addBatchSinglePlace(&view, 0, view.rows, result_state, arena);
        aggregate_->insertResultInto(result_state, to);
        aggregate_->destroy(result_state);
    }
    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override
    {
        for (size_t i = 0; i < count; ++i)
        {
            insertResultInto(places[i] + state_offset, to);
        }
    }

private:
    /// A set key back as the column value it was made from (numbers are kept as their bits).
    static void appendValue(typename Traits::Key key, Column& values)
    {
        if constexpr (std::is_same_v<T, std::string_view>)
        {
            values.appendString(key);
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
            values.append<T>(std::bit_cast<T>(static_cast<Bits>(key)));
        }
        else
        {
            values.append<T>(static_cast<T>(key));
        }
    }

    std::shared_ptr<const AggregateFunction> aggregate_;
    TypeId argument_type_;
};

/// fDistinct over an argument of `type`: `set` is uniqExact of it, `aggregate` f of it.
inline std::shared_ptr<const AggregateFunction> makeDistinctCombinator(
    std::shared_ptr<const AggregateFunction> set,
    std::shared_ptr<const AggregateFunction> aggregate, TypeId type)
{
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>) -> std::shared_ptr<const AggregateFunction>
                        {
                            using Traits =
                                std::conditional_t<std::is_same_v<T, std::string_view>,
                                                   StringDistinctTraits, NumberDistinctTraits<T>>;
                            return std::make_shared<DistinctCombinator<T, Traits>>(
                                std::move(set), std::move(aggregate), type);
                        });
}

}  // namespace granary
