#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// avg(T) as Float64. Integer sums are kept exactly in 128 bits: 2^64 rows of 64-bit values
/// fit, so avg(UserID) over billions of rows cannot overflow as a 64-bit sum would.
template <typename T>
struct AvgState
{
    using Sum =
        std::conditional_t<std::is_floating_point_v<T>, double,
                           std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>;
    Sum sum{};
    uint64_t count = 0;
};

template <typename T>
class AvgFunction final : public AggregateFunctionBase<AvgFunction<T>, AvgState<T>>
{
    using State = AvgState<T>;

public:
    std::string name() const override { return "avg"; }
    DataType resultType() const override { return TypeId::Float64; }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena&)
    {
        state.sum += arguments[0].valueAt<T>(row);
        ++state.count;
    }
    static void mergeStates(State& target, const State& source)
    {
        target.sum += source.sum;
        target.count += source.count;
    }
    void insertResult(const State& state, Column& to) const
    {
        const double result = state.count == 0
                                  ? std::numeric_limits<double>::quiet_NaN()
                                  : sumAsDouble(state.sum) / static_cast<double>(state.count);
        to.append(result);
    }

private:
    /// The 128-bit sum rounded to double. A sum that fits 64 bits (nearly all) converts with one
    /// instruction instead of libgcc's 128-bit routine; both round to nearest, so equally.
    static double sumAsDouble(typename State::Sum sum)
    {
        if constexpr (std::is_floating_point_v<T>)
        {
            return sum;
        }
        else
        {
            using Narrow = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
            if (sum >= std::numeric_limits<Narrow>::min() &&
                sum <= std::numeric_limits<Narrow>::max())
            {
                return static_cast<double>(static_cast<Narrow>(sum));
            }
            return static_cast<double>(sum);
        }
    }
};

}  // namespace granary
