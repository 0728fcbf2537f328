#include "engine/expressions/comparison.h"

#include <cmath>
#include <limits>
#include <utility>

#include "engine/expressions/column_reference.h"
#include "engine/expressions/predicate.h"

namespace granary
{
namespace
{

/// Comparators that compare integers of mixed signedness by value (std::cmp_*).
struct Equals
{
    template <typename A, typename B>
    bool operator()(A a, B b) const
    {
        if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
        {
            return std::cmp_equal(a, b);
        }
        else
        {
            return a == b;
        }
    }
};
struct NotEquals
{
    template <typename A, typename B>
    bool operator()(A a, B b) const
    {
        return !Equals{}(a, b);
    }
};
struct Less
{
    template <typename A, typename B>
    bool operator()(A a, B b) const
    {
        if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
        {
            return std::cmp_less(a, b);
        }
        else
        {
            return a < b;
        }
    }
};
struct Greater
{
    template <typename A, typename B>
    bool operator()(A a, B b) const
    {
        return Less{}(b, a);
    }
};
struct LessOrEquals
{
    template <typename A, typename B>
    bool operator()(A a, B b) const
    {
        if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
        {
            return std::cmp_less_equal(a, b);
        }
        else
        {
            return a <= b;
        }
    }
};
struct GreaterOrEquals
{
    template <typename A, typename B>
    bool operator()(A a, B b) const
    {
        return LessOrEquals{}(b, a);
    }
};

/// Calls f(Comparator{}) for the operator.
template <typename F>
decltype(auto) dispatchComparison(ComparisonOperator op, F&& f)
{
    switch (op)
    {
        case ComparisonOperator::Equals:
            return f(Equals{});
        case ComparisonOperator::NotEquals:
            return f(NotEquals{});
        case ComparisonOperator::Less:
            return f(Less{});
        case ComparisonOperator::LessOrEquals:
            return f(LessOrEquals{});
        case ComparisonOperator::Greater:
            return f(Greater{});
        case ComparisonOperator::GreaterOrEquals:
            return f(GreaterOrEquals{});
    }
    __builtin_unreachable();
}

/// The answer for every value of the type when the constant lies below (or above) its range.
bool answerBelowRange(ComparisonOperator op)
{
    return op == ComparisonOperator::NotEquals || op == ComparisonOperator::Greater ||
           op == ComparisonOperator::GreaterOrEquals;
}
bool answerAboveRange(ComparisonOperator op)
{
    return op == ComparisonOperator::NotEquals || op == ComparisonOperator::Less ||
           op == ComparisonOperator::LessOrEquals;
}

template <typename T>
ReducedComparison<T> reduceIntegerConstant(ComparisonOperator op, __int128 constant)
{
    ReducedComparison<T> reduced;
    if (constant < std::numeric_limits<T>::min())
    {
        reduced.always = answerBelowRange(op);
    }
    else if (constant > std::numeric_limits<T>::max())
    {
        reduced.always = answerAboveRange(op);
    }
    else
    {
        reduced.op = op;
        reduced.value = static_cast<T>(constant);
    }
    return reduced;
}

template <typename T>
ReducedComparison<T> reduceFloatConstant(ComparisonOperator op, double constant)
{
    ReducedComparison<T> reduced;
    if (std::isnan(constant))
    {
        reduced.always = op == ComparisonOperator::NotEquals;
        return reduced;
    }
    // Every T lies in [-limit, limit) for signed T, [0, limit) for unsigned; limit is a power
    // of two, so it is exact in double.
    const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);
    const double lowest = std::is_signed_v<T> ? -limit : 0.0;
    if (constant < lowest)
    {
        reduced.always = answerBelowRange(op);
        return reduced;
    }
    if (std::ceil(constant) >= limit)
    {
        reduced.always = answerAboveRange(op);
        return reduced;
    }
    const double floor = std::floor(constant);
    if (floor == constant)
    {
        reduced.op = op;
        reduced.value = static_cast<T>(constant);
        return reduced;
    }
    // A fraction: no integer equals it; x < 2.5 is x <= 2 and x > 2.5 is x >= 3.
    switch (op)
    {
        case ComparisonOperator::Equals:
        case ComparisonOperator::NotEquals:
            reduced.always = op == ComparisonOperator::NotEquals;
            break;
        case ComparisonOperator::Less:
        case ComparisonOperator::LessOrEquals:
            reduced.op = ComparisonOperator::LessOrEquals;
            reduced.value = static_cast<T>(floor);
            break;
        case ComparisonOperator::Greater:
        case ComparisonOperator::GreaterOrEquals:
            reduced.op = ComparisonOperator::GreaterOrEquals;
            reduced.value = static_cast<T>(floor + 1);
            break;
    }
    return reduced;
}

/// x op value for every value of a column of T.
template <typename T, typename Compare>
class ConstantComparisonNode final
    : public ValueTestPredicateNode<ConstantComparisonNode<T, Compare>, T>
{
public:
    using Value = typename ReducedComparison<T>::Value;

    ConstantComparisonNode(NodePtr operand, Value value)
        : ValueTestPredicateNode<ConstantComparisonNode<T, Compare>, T>(std::move(operand)),
          value_(value)
    {
    }

    auto test() const
    {
        return [value = value_](T x) { return Compare{}(static_cast<Value>(x), value); };
    }

private:
    Value value_;
};

class StringConstantComparisonNode final : public PredicateNode
{
public:
    StringConstantComparisonNode(NodePtr operand, ComparisonOperator op, std::string value)
        : PredicateNode(std::move(operand)), op_(op), value_(std::move(value))
    {
    }

protected:
    void writeMask(const ColumnView& values, uint8_t* mask) const override
    {
        const std::string_view constant = value_;
        dispatchComparison(op_,
                           [&](auto compare)
                           {
                               writeMaskByTest<std::string_view>(values, mask,
                                                                 [&](std::string_view x)
                                                                 { return compare(x, constant); });
                           });
    }
    void keepPassingRows(const ColumnView& values, std::vector<uint32_t>& rows) const override
    {
        const std::string_view constant = value_;
        dispatchComparison(op_,
                           [&](auto compare)
                           {
                               keepRowsByTest<std::string_view>(values, rows,
                                                                [&](std::string_view x)
                                                                { return compare(x, constant); });
                           });
    }

private:
    ComparisonOperator op_;
    std::string value_;
};

/// Both sides vary: numbers are brought to 64-bit types (or Float64) and compared by value.
class ComparisonNode final : public ExpressionNode
{
public:
    ComparisonNode(ComparisonOperator op, NodePtr left, NodePtr right)
        : ExpressionNode(TypeId::UInt8, {std::move(left), std::move(right)}), op_(op)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column left_holder;
        Column right_holder;
        const ColumnView left = children()[0]->evaluate(input, begin, count, left_holder);
        const ColumnView right = children()[1]->evaluate(input, begin, count, right_holder);
        holder = Column(TypeId::UInt8);
        holder.resizeFixed(count);
        uint8_t* out = holder.mutableData<uint8_t>();
        if (isString(left.type))
        {
            dispatchComparison(op_,
                               [&](auto compare)
                               {
                                   for (size_t row = 0; row < count; ++row)
                                   {
                                       out[row] = compare(left.stringAt(row), right.stringAt(row));
                                   }
                               });
            return holder.view();
        }
        Column left_converted;
        Column right_converted;
        const ColumnView a = convertFixed(left, domain(left.type, right.type), left_converted);
        const ColumnView b = convertFixed(right, domain(right.type, left.type), right_converted);
        dispatchComparison(op_, [&](auto compare) { compareDomains(a, b, out, compare); });
        return holder.view();
    }

private:
    /// Float64 when either side is a float, else the 64-bit type of the side's signedness.
    static TypeId domain(TypeId side, TypeId other)
    {
        if (isFloat(side) || isFloat(other))
        {
            return TypeId::Float64;
        }
        return isSignedInteger(side) ? TypeId::Int64 : TypeId::UInt64;
    }

    template <typename Compare>
    static void compareDomains(const ColumnView& a, const ColumnView& b, uint8_t* out,
                               Compare compare)
    {
        const auto loop = [&]<typename A, typename B>(TypeTag<A>, TypeTag<B>)
        {
            const A* left = static_cast<const A*>(a.data);
            const B* right = static_cast<const B*>(b.data);
            const size_t rows = a.rows;  // read once: `out` may alias it
            for (size_t row = 0; row < rows; ++row)
            {
                out[row] = compare(left[row], right[row]);
            }
        };
        if (a.type == TypeId::Float64)
        {
            loop(TypeTag<double>{}, TypeTag<double>{});
        }
        else if (a.type == TypeId::Int64)
        {
            b.type == TypeId::Int64 ? loop(TypeTag<int64_t>{}, TypeTag<int64_t>{})
                                    : loop(TypeTag<int64_t>{}, TypeTag<uint64_t>{});
        }
        else
        {
            b.type == TypeId::Int64 ? loop(TypeTag<uint64_t>{}, TypeTag<int64_t>{})
                                    : loop(TypeTag<uint64_t>{}, TypeTag<uint64_t>{});
        }
    }

    ComparisonOperator op_;
};

template <typename T>
NodePtr makeConstantComparison(ComparisonOperator op, NodePtr operand, const Column& constant)
{
    const ReducedComparison<T> reduced = reduceComparison<T>(op, constant);
    if (reduced.always)
    {
        Column answer(TypeId::UInt8);
        answer.append<uint8_t>(*reduced.always ? 1 : 0);
        return std::make_shared<ConstantNode>(std::move(answer));
    }
    return dispatchComparison(reduced.op,
                              [&]<typename Compare>(Compare) -> NodePtr
                              {
                                  return std::make_shared<ConstantComparisonNode<T, Compare>>(
                                      std::move(operand), reduced.value);
                              });
}

}  // namespace

ComparisonOperator mirrored(ComparisonOperator op)
{
    switch (op)
    {
        case ComparisonOperator::Less:
            return ComparisonOperator::Greater;
        case ComparisonOperator::LessOrEquals:
            return ComparisonOperator::GreaterOrEquals;
        case ComparisonOperator::Greater:
            return ComparisonOperator::Less;
        case ComparisonOperator::GreaterOrEquals:
            return ComparisonOperator::LessOrEquals;
        default:
            return op;
    }
}

template <typename T>
ReducedComparison<T> reduceComparison(ComparisonOperator op, const Column& constant, size_t row)
{
    return dispatchFixedType(constant.type(),
                             [&]<typename K>(TypeTag<K>) -> ReducedComparison<T>
                             {
                                 const K value = constant.valueAt<K>(row);
                                 if constexpr (std::is_floating_point_v<T>)
                                 {
                                     ReducedComparison<T> reduced;
                                     reduced.op = op;
                                     reduced.value = static_cast<double>(value);
                                     return reduced;
                                 }
                                 else if constexpr (std::is_floating_point_v<K>)
                                 {
                                     return reduceFloatConstant<T>(op, value);
                                 }
                                 else
                                 {
                                     return reduceIntegerConstant<T>(op, value);
                                 }
                             });
}

#define GRANARY_INSTANTIATE_REDUCE(T) \
    template ReducedComparison<T> reduceComparison<T>(ComparisonOperator, const Column&, size_t);
GRANARY_INSTANTIATE_REDUCE(uint8_t)
GRANARY_INSTANTIATE_REDUCE(uint16_t)
GRANARY_INSTANTIATE_REDUCE(uint32_t)
GRANARY_INSTANTIATE_REDUCE(uint64_t)
GRANARY_INSTANTIATE_REDUCE(int8_t)
GRANARY_INSTANTIATE_REDUCE(int16_t)
GRANARY_INSTANTIATE_REDUCE(int32_t)
GRANARY_INSTANTIATE_REDUCE(int64_t)
GRANARY_INSTANTIATE_REDUCE(float)
GRANARY_INSTANTIATE_REDUCE(double)
#undef GRANARY_INSTANTIATE_REDUCE

NodePtr makeComparison(ComparisonOperator op, NodePtr left, NodePtr right)
{
    if (left->constantValue() && !right->constantValue())
    {
        return makeComparison(mirrored(op), std::move(right), std::move(left));
    }
    const Column* constant = right->constantValue();
    if (!constant || left->constantValue())
    {
        return std::make_shared<ComparisonNode>(op, std::move(left), std::move(right));
    }
    if (isString(left->type()))
    {
        return std::make_shared<StringConstantComparisonNode>(std::move(left), op,
                                                              std::string(constant->stringAt(0)));
    }
    return dispatchFixedType(left->type(), [&]<typename T>(TypeTag<T>)
                             { return makeConstantComparison<T>(op, std::move(left), *constant); });
}

}  // namespace granary
