#include "engine/expressions/arithmetic.h"

#include <cmath>
#include <limits>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

struct Plus
{
    template <typename C>
    C operator()(C a, C b) const
    {
        return a + b;
    }
};
struct Minus
{
    template <typename C>
    C operator()(C a, C b) const
    {
        return a - b;
    }
};
struct Multiply
{
    template <typename C>
    C operator()(C a, C b) const
    {
        return a * b;
    }
};
struct Divide
{
    double operator()(double a, double b) const { return a / b; }
};
/// Divisors are checked for zero before the loop; x % -1 is 0 (INT64_MIN % -1 would trap).
struct Modulo
{
    template <typename C>
    C operator()(C a, C b) const
    {
        if constexpr (std::is_floating_point_v<C>)
        {
            return std::fmod(a, b);
        }
        else if constexpr (std::is_signed_v<C>)
        {
            return b == -1 ? 0 : a % b;
        }
        else
        {
            return a % b;
        }
    }
};

template <typename C, typename Out, typename Op>
void arithmeticLoop(const C* left, bool left_scalar, const C* right, bool right_scalar, Out* out,
                    size_t rows, Op op)
{
    if (left_scalar)
    {
        const C a = left[0];
        for (size_t row = 0; row < rows; ++row)
        {
            out[row] = static_cast<Out>(op(a, right[row]));
        }
    }
    else if (right_scalar)
    {
        const C b = right[0];
        for (size_t row = 0; row < rows; ++row)
        {
            out[row] = static_cast<Out>(op(left[row], b));
        }
    }
    else
    {
        for (size_t row = 0; row < rows; ++row)
        {
            out[row] = static_cast<Out>(op(left[row], right[row]));
        }
    }
}

/// The type the operands are converted to before the operation.
TypeId computationType(ArithmeticOperator op, TypeId result)
{
    if (isFloat(result) || op == ArithmeticOperator::Divide)
    {
        return TypeId::Float64;
    }
    // Only % differs between signed and unsigned; + - * give the same bits in UInt64.
    return op == ArithmeticOperator::Modulo && result == TypeId::Int64 ? TypeId::Int64
                                                                       : TypeId::UInt64;
}

class ArithmeticNode final : public ExpressionNode
{
public:
    ArithmeticNode(ArithmeticOperator op, NodePtr left, NodePtr right, TypeId result,
                   std::string description)
        : ExpressionNode(result, {std::move(left), std::move(right)}),
          op_(op),
          computation_(computationType(op, result)),
          description_(std::move(description))
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Operand left;
        Operand right;
        evaluateOperand(*children()[0], input, begin, count, left);
        evaluateOperand(*children()[1], input, begin, count, right);
        Column left_converted;
        Column right_converted;
        const ColumnView a = convertFixed(left.view, computation_, left_converted);
        const ColumnView b = convertFixed(right.view, computation_, right_converted);
        holder = Column(type());
        holder.resizeFixed(count);
        dispatchFixedType(
            computation_,
            [&]<typename C>(TypeTag<C>)
            {
                if constexpr (std::is_same_v<C, double> || std::is_same_v<C, int64_t> ||
                              std::is_same_v<C, uint64_t>)
                {
                    run<C>(static_cast<const C*>(a.data), left.scalar,
                           static_cast<const C*>(b.data), right.scalar, b.rows, holder, count);
                }
            });
        return holder.view();
    }

private:
    template <typename C>
    void run(const C* a, bool a_scalar, const C* b, bool b_scalar, size_t b_rows, Column& holder,
             size_t count) const
    {
        if constexpr (std::is_integral_v<C>)
        {
            if (op_ == ArithmeticOperator::Modulo)
            {
                checkNoZero(b, b_scalar ? 1 : b_rows);
            }
        }
        dispatchFixedType(
            type(),
            [&]<typename Out>(TypeTag<Out>)
            {
                Out* out = holder.mutableData<Out>();
                switch (op_)
                {
                    case ArithmeticOperator::Plus:
                        return arithmeticLoop(a, a_scalar, b, b_scalar, out, count, Plus{});
                    case ArithmeticOperator::Minus:
                        return arithmeticLoop(a, a_scalar, b, b_scalar, out, count, Minus{});
                    case ArithmeticOperator::Multiply:
                        return arithmeticLoop(a, a_scalar, b, b_scalar, out, count, Multiply{});
                    case ArithmeticOperator::Divide:
                        if constexpr (std::is_same_v<C, double>)
                        {
                            return arithmeticLoop(a, a_scalar, b, b_scalar, out, count, Divide{});
                        }
                        return;
                    case ArithmeticOperator::Modulo:
                        return arithmeticLoop(a, a_scalar, b, b_scalar, out, count, Modulo{});
                }
            });
    }

    template <typename C>
    void checkNoZero(const C* divisors, size_t rows) const
    {
        bool zero = false;
        for (size_t row = 0; row < rows; ++row)
        {
            zero |= divisors[row] == 0;
        }
        if (zero)
        {
            throw Exception(ErrorCode::kBadArguments, "Division by zero in " + description_);
        }
    }

    ArithmeticOperator op_;
    TypeId computation_;
    std::string description_;
};

class NegateNode final : public ExpressionNode
{
public:
    NegateNode(NodePtr operand, TypeId result) : ExpressionNode(result, {std::move(operand)}) {}

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column values_holder;
        Column converted;
        const ColumnView values = children()[0]->evaluate(input, begin, count, values_holder);
        const TypeId computation = type() == TypeId::Float64 ? TypeId::Float64 : TypeId::UInt64;
        const ColumnView operand = convertFixed(values, computation, converted);
        holder = Column(type());
        holder.resizeFixed(count);
        if (computation == TypeId::Float64)
        {
            const double* in = static_cast<const double*>(operand.data);
            double* out = holder.mutableData<double>();
            for (size_t row = 0; row < count; ++row)
            {
                out[row] = -in[row];
            }
        }
        else
        {
            const uint64_t* in = static_cast<const uint64_t*>(operand.data);
            uint64_t* out = holder.mutableData<uint64_t>();
            for (size_t row = 0; row < count; ++row)
            {
                out[row] = uint64_t{0} - in[row];
            }
        }
        return holder.view();
    }
};

}  // namespace

NodePtr makeArithmetic(ArithmeticOperator op, NodePtr left, NodePtr right, TypeId result,
                       std::string description)
{
    return std::make_shared<ArithmeticNode>(op, std::move(left), std::move(right), result,
                                            std::move(description));
}

NodePtr makeNegate(NodePtr operand, TypeId result)
{
    return std::make_shared<NegateNode>(std::move(operand), result);
}

}  // namespace granary
