#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/common/exception.h"

namespace granary
{

/// What an integer sum does when a group's sum leaves its 64-bit result type.
enum class SumOverflow
{
    /// sumWithOverflow: wraps in 64 bits (signed sums are added as unsigned so that the wrap
    /// is defined), as ClickHouse's sum does.
    kWrap,
    /// sum: accumulates exactly in 128 bits (2^64 rows of 64-bit values fit) and throws at
    /// finalisation when the sum does not fit the result type.
    kThrow,
};

/// The result of sum(T): Int64, UInt64 or Float64.
template <typename T>
using SumResult = std::conditional_t<std::is_floating_point_v<T>, double,
                                     std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;

/// The accumulator of sum(T): the result type, or 128 bits for checked integer sums.
template <typename T, SumOverflow overflow>
using SumAccumulator =
    std::conditional_t<std::is_floating_point_v<T> || overflow == SumOverflow::kWrap, SumResult<T>,
                       std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>;

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

/// sum(x) and sumWithOverflow(x): one template, `overflow` decides what an integer sum that
/// leaves 64 bits does. Float sums are the same double in both.
template <typename T, SumOverflow overflow>
class SumFunction final
    : public AggregateFunctionBase<SumFunction<T, overflow>, SumAccumulator<T, overflow>>
{
    using Accumulator = SumAccumulator<T, overflow>;
    using Result = SumResult<T>;
    using Base = AggregateFunctionBase<SumFunction<T, overflow>, Accumulator>;
    static constexpr bool kChecked =
        !std::is_floating_point_v<T> && overflow == SumOverflow::kThrow;

public:
    /// `column`: the argument's name, which the overflow error names.
    explicit SumFunction(std::string column) : column_(std::move(column)) {}

    std::string name() const override
    {
        return overflow == SumOverflow::kWrap ? "sumWithOverflow" : "sum";
    }
    DataType resultType() const override { return sumResultType<T>(); }

    static void add(Accumulator& sum, const ColumnView* arguments, size_t row, Arena&)
    {
        sum = addWrapping(sum, static_cast<Accumulator>(arguments[0].valueAt<T>(row)));
    }
    static void mergeStates(Accumulator& target, Accumulator source)
    {
        target = addWrapping(target, source);
    }
    void insertResult(Accumulator sum, Column& to) const
    {
        if constexpr (kChecked)
        {
            // The sum fits the result type exactly when it survives the round trip.
            if (static_cast<Accumulator>(static_cast<Result>(sum)) != sum)
            {
                throw Exception(ErrorCode::kValueOutOfRangeOfDataType,
                                "sum of column '" + column_ + "' overflows " +
                                    std::string(typeName(sumResultType<T>())) +
                                    "; sumWithOverflow wraps");
            }
        }
        to.append(static_cast<Result>(sum));
    }

    /// Plain loops over the column that the compiler vectorizes.
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena&) const override
    {
        const T* values = static_cast<const T*>(arguments[0].data) + first_row;
        Accumulator sum{};
        if constexpr (kChecked)
        {
            sum = exactSum(values, count);
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            for (size_t i = 0; i < count; ++i)
            {
                sum += values[i];
            }
        }
        else
        {
            uint64_t wrapped = 0;
            for (size_t i = 0; i < count; ++i)
            {
                wrapped += static_cast<uint64_t>(static_cast<Accumulator>(values[i]));
            }
            sum = static_cast<Accumulator>(wrapped);
        }
        mergeStates(Base::state(place), sum);
    }

private:
    /// Rows summed in 64 bits before carrying into the 128-bit sum: 2^31 values of 32 bits
    /// (or 32-bit halves of 64-bit values) cannot overflow a 64-bit partial sum.
    static constexpr size_t kRowsPerPartialSum = size_t{1} << 31;

    /// The exact sum of `count` integers, in 64-bit partial sums the compiler vectorizes
    /// (128-bit additions do not).
    static Accumulator exactSum(const T* values, size_t count)
    {
        using Partial = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
        constexpr int kHalfBits = 32;
        Accumulator sum = 0;
        for (size_t begin = 0; begin < count; begin += kRowsPerPartialSum)
        {
            const size_t end = std::min(count, begin + kRowsPerPartialSum);
            if constexpr (sizeof(T) <= sizeof(uint32_t))
            {
                Partial partial = 0;
                for (size_t i = begin; i < end; ++i)
                {
                    partial += values[i];
                }
                sum += partial;
            }
            else
            {
                // A 64-bit value is high * 2^32 + low, high signed for signed values.
                Partial high = 0;
                uint64_t low = 0;
                for (size_t i = begin; i < end; ++i)
                {
                    high += values[i] >> kHalfBits;
                    low += static_cast<uint32_t>(values[i]);
                }
                sum += static_cast<Accumulator>(high) * (Accumulator{1} << kHalfBits) + low;
            }
        }
        return sum;
    }

    /// Adds in the accumulator's width: wrapping for sumWithOverflow, exact for checked sums
    /// (128 bits cannot overflow), plain for doubles.
    static Accumulator addWrapping(Accumulator a, Accumulator b)
    {
        if constexpr (!std::is_floating_point_v<T> && overflow == SumOverflow::kWrap)
        {
            return static_cast<Accumulator>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
        }
        else
        {
            return a + b;
        }
    }

    std::string column_;
};

}  // namespace granary
