#include <cmath>

#include "engine/common/exception.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/row_function_node.h"
#include "engine/expressions/type_rules.h"

namespace granary
{
namespace
{

enum class Rounding
{
    kNearest,  ///< Ties to even, as ClickHouse rounds floats.
    kDown,
    kUp,
};

double roundDouble(double value, Rounding rounding)
{
    switch (rounding)
    {
        case Rounding::kNearest:
            return std::nearbyint(value);
        case Rounding::kDown:
            return std::floor(value);
        case Rounding::kUp:
            return std::ceil(value);
    }
    return value;
}

/// round(x[, N]), floor(x[, N]), ceil(x[, N]): to N decimal places (negative N: to tens,
/// hundreds...), in x's type.
NodePtr buildRounding(CallContext& call)
{
    const NodePtr& value = call.numericArgument(0);
    if (isDateOrTime(value->type()))
    {
        call.failArgumentType(0, "a number");
    }
    const int64_t places = call.argumentCount() == 2 ? call.constantInteger(1, "precision") : 0;
    if (places > 308 || places < -308)
    {
        call.fail(ErrorCode::kBadArguments,
                  "The precision of " + call.name() + " must be within -308..308");
    }
    if (isInteger(value->type()) && places >= 0)
    {
        return value;  // Whole numbers are already rounded.
    }
    const std::string& name = call.lowerName();
    const Rounding rounding = name == "round"   ? Rounding::kNearest
                              : name == "floor" ? Rounding::kDown
                                                : Rounding::kUp;
    const double scale = std::pow(10.0, static_cast<double>(places));
    return makeRowFunction(
        value->dataType(), {value},
        [rounding, scale](const std::vector<Operand>& values, size_t row, Column& out)
        {
            const double rounded = roundDouble(doubleAt(values[0], row) * scale, rounding) / scale;
            dispatchFixedType(out.type(),
                              [&]<typename T>(TypeTag<T>) { out.append(static_cast<T>(rounded)); });
        });
}

/// intDiv(a, b): integer division rounding toward zero; Int64 if either side is signed, else
/// UInt64. A zero divisor is kBadArguments naming the row's values.
NodePtr buildIntDiv(CallContext& call)
{
    const NodePtr& dividend = call.numericArgument(0);
    const NodePtr& divisor = call.numericArgument(1);
    const bool is_signed = isSignedInteger(dividend->type()) || isSignedInteger(divisor->type()) ||
                           isFloat(dividend->type()) || isFloat(divisor->type());
    const std::string where = call.position();
    return makeRowFunction(
        is_signed ? TypeId::Int64 : TypeId::UInt64, {dividend, divisor},
        [is_signed, where](const std::vector<Operand>& values, size_t row, Column& out)
        {
            const auto fail = [&]
            { throw Exception(ErrorCode::kBadArguments, "Division by zero in intDiv " + where); };
            if (is_signed)
            {
                const int64_t a = integerAt(values[0], row);
                const int64_t b = integerAt(values[1], row);
                if (b == 0)
                {
                    fail();
                }
                // INT64_MIN / -1 wraps, as ClickHouse's integer arithmetic does.
                out.append<int64_t>(b == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a))
                                            : a / b);
                return;
            }
            const auto a = static_cast<uint64_t>(integerAt(values[0], row));
            const auto b = static_cast<uint64_t>(integerAt(values[1], row));
            if (b == 0)
            {
                fail();
            }
            out.append<uint64_t>(a / b);
        });
}

/// abs(x): an unsigned integer of the same width for signed ones, the same type otherwise.
NodePtr buildAbs(CallContext& call)
{
    const NodePtr& value = call.numericArgument(0);
    const TypeId type = value->type();
    if (isDateOrTime(type))
    {
        call.failArgumentType(0, "a number");
    }
    if (!isSignedInteger(type) && !isFloat(type))
    {
        return value;
    }
    const TypeId result = type == TypeId::Int8    ? TypeId::UInt8
                          : type == TypeId::Int16 ? TypeId::UInt16
                          : type == TypeId::Int32 ? TypeId::UInt32
                          : type == TypeId::Int64 ? TypeId::UInt64
                                                  : type;
    return makeRowFunction(
        result, {value},
        [](const std::vector<Operand>& values, size_t row, Column& out)
        {
            dispatchFixedType(
                out.type(),
                [&]<typename T>(TypeTag<T>)
                {
                    if constexpr (std::is_floating_point_v<T>)
                    {
                        out.append(static_cast<T>(std::fabs(doubleAt(values[0], row))));
                    }
                    else
                    {
                        const int64_t x = integerAt(values[0], row);
                        out.append(static_cast<T>(x < 0 ? 0 - static_cast<uint64_t>(x)
                                                        : static_cast<uint64_t>(x)));
                    }
                });
        });
}

}  // namespace

std::vector<ScalarFunction> mathFunctionEntries()
{
    return {
        {"round", "round(x[, N])",
         "x rounded to N decimal places (default 0; negative: tens, hundreds...), ties to even "
         "for floats, in x's type.",
         1, 2, false, buildRounding},
        {"floor", "floor(x[, N])", "x rounded down to N decimal places, in x's type.", 1, 2, false,
         buildRounding},
        {"ceil", "ceil(x[, N])", "x rounded up to N decimal places, in x's type.", 1, 2, false,
         buildRounding},
        {"ceiling", "ceiling(x[, N])", "ceil(x[, N]).", 1, 2, false, buildRounding},
        {"intDiv", "intDiv(a, b)",
         "a / b rounded toward zero: Int64 if either is signed or a float, else UInt64; a zero "
         "divisor is an error.",
         2, 2, false, buildIntDiv},
        {"abs", "abs(x)",
         "The absolute value; an unsigned type of the same width for signed integers.", 1, 1, false,
         buildAbs},
    };
}

}  // namespace granary
