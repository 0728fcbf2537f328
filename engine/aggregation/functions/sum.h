#pragma once

#include <cstdint>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// The accumulator of sum(T): 64-bit integers (wrapping on overflow, as ClickHouse does:
/// signed sums are added as unsigned so that the wrap is defined) or double.
template <typename T>
using SumAccumulator =
    std::conditional_t<std::is_floating_point_v<T>, double,
                       std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;

template <typename T>
constexpr TypeId sumResultType()
{
    if constexpr (std::is_floating_point_v<T>)
    {
        return TypeId::Float64;
    }
    else if constexpr (std::is_signed_v<T>)
    {
        return TypeId::Int64;
    }
    else
    {
        return TypeId::UInt64;
    }
}

template <typename T>
class SumFunction final : public AggregateFunctionBase<SumFunction<T>, SumAccumulator<T>>
{
    using Accumulator = SumAccumulator<T>;
    using Base = AggregateFunctionBase<SumFunction<T>, Accumulator>;

public:
    std::string name() const override { return "sum"; }
    TypeId resultType() const override { return sumResultType<T>(); }

    static void add(Accumulator& sum, const ColumnView* arguments, size_t row, Arena&)
    {
        sum = addWrapping(sum, static_cast<Accumulator>(arguments[0].valueAt<T>(row)));
    }
    static void mergeStates(Accumulator& target, Accumulator source)
    {
        target = addWrapping(target, source);
    }
    void insertResult(Accumulator sum, Column& to) const { to.append(sum); }

    /// A plain loop over the column that the compiler vectorizes.
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena&) const override
    {
        const T* values = static_cast<const T*>(arguments[0].data) + first_row;
        Accumulator sum{};
        if constexpr (std::is_integral_v<Accumulator>)
        {
            uint64_t wrapped = 0;
            for (size_t i = 0; i < count; ++i)
            {
                wrapped += static_cast<uint64_t>(static_cast<Accumulator>(values[i]));
            }
            sum = static_cast<Accumulator>(wrapped);
        }
        else
        {
            for (size_t i = 0; i < count; ++i)
            {
                sum += values[i];
            }
        }
        mergeStates(Base::state(place), sum);
    }

private:
    static Accumulator addWrapping(Accumulator a, Accumulator b)
    {
        if constexpr (std::is_integral_v<Accumulator>)
        {
            return static_cast<Accumulator>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
        }
        else
        {
            return a + b;
        }
    }
};

}  // namespace granary
