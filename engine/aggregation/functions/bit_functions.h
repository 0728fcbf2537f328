#pragma once

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// The bitwise operations of groupBitAnd, groupBitOr and groupBitXor, each with its identity
/// (the result over no rows).
struct BitAnd
{
    static constexpr const char* kName = "groupBitAnd";
    template <typename T>
    static constexpr T identity()
    {
        return static_cast<T>(~T{});
    }
    template <typename T>
    static T apply(T a, T b)
    {
        return a & b;
    }
};
struct BitOr
{
    static constexpr const char* kName = "groupBitOr";
    template <typename T>
    static constexpr T identity()
    {
        return T{};
    }
    template <typename T>
    static T apply(T a, T b)
    {
        return a | b;
    }
};
struct BitXor
{
    static constexpr const char* kName = "groupBitXor";
    template <typename T>
    static constexpr T identity()
    {
        return T{};
    }
    template <typename T>
    static T apply(T a, T b)
    {
        return a ^ b;
    }
};

/// State of the groupBit functions: the operation over the rows so far.
template <typename T, typename Operation>
struct GroupBitState
{
    T value = Operation::template identity<T>();
};

/// groupBitAnd(x), groupBitOr(x), groupBitXor(x) over an integer column, of its type: one
/// template, the Operation decides.
template <typename T, typename Operation>
class GroupBitFunction final
    : public AggregateFunctionBase<GroupBitFunction<T, Operation>, GroupBitState<T, Operation>>
{
    using State = GroupBitState<T, Operation>;

public:
    explicit GroupBitFunction(TypeId type) : type_(type) {}

    std::string name() const override { return Operation::kName; }
    DataType resultType() const override { return type_; }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena&)
    {
        state.value = Operation::apply(state.value, arguments[0].valueAt<T>(row));
    }
    static void mergeStates(State& target, const State& source)
    {
        target.value = Operation::apply(target.value, source.value);
    }
    void insertResult(const State& state, Column& to) const { to.append(state.value); }

private:
    TypeId type_;
};

}  // namespace granary
