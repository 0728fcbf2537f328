#include "engine/aggregation/functions/statistics_functions.h"

#include <memory>
#include <type_traits>

#include "engine/aggregation/functions/any_heavy.h"
#include "engine/aggregation/functions/arg_min_max.h"
#include "engine/aggregation/functions/bit_functions.h"
#include "engine/aggregation/functions/min_max_any.h"
#include "engine/aggregation/functions/moments.h"
#include "engine/aggregation/functions/sum.h"

namespace granary
{
namespace
{

/// Dates and times are stored as integers but are no numbers to add or multiply.
bool isCalendarType(TypeId type)
{
    return type == TypeId::Date || type == TypeId::DateTime;
}

/// Calls make(TypeTag<T>{}) with the C++ type of argument `index` of `call`, which must be a
/// number: String, Date and DateTime arguments are Exception(kTypeMismatch) naming the column.
template <typename Make>
AggregateFunctionPtr withNumber(const AggregateCall& call, size_t index, Make&& make)
{
    const AggregateArgument& argument = call.arguments[index];
    if (isString(argument.type) || isCalendarType(argument.type))
    {
        throwAggregateTypeMismatch(call, argument, "a number");
    }
    return dispatchFixedType(argument.type, make);
}

/// The same for an integer argument (floats are refused too).
template <typename Make>
AggregateFunctionPtr withInteger(const AggregateCall& call, size_t index, Make&& make)
{
    const AggregateArgument& argument = call.arguments[index];
    if (!isInteger(argument.type) || isCalendarType(argument.type))
    {
        throwAggregateTypeMismatch(call, argument, "an integer");
    }
    // Float types are excluded at compile time, as dispatchFixedType excludes String.
    return dispatchFixedType(argument.type,
                             [&]<typename T>(TypeTag<T> tag) -> AggregateFunctionPtr
                             {
                                 if constexpr (std::is_floating_point_v<T>)
                                 {
                                     __builtin_unreachable();
                                 }
                                 else
                                 {
                                     return make(tag);
                                 }
                             });
}

template <SumOverflow overflow>
AggregateFunctionPtr sum(const AggregateCall& call)
{
    return withNumber(call, 0,
                      [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr {
                          return std::make_shared<SumFunction<T, overflow>>(call.arguments[0].name);
                      });
}

template <VarianceKind kind>
AggregateFunctionPtr variance(const AggregateCall& call)
{
    return withNumber(call, 0,
                      [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                      { return std::make_shared<VarianceFunction<T>>(kind); });
}

template <CovarianceKind kind>
AggregateFunctionPtr covariance(const AggregateCall& call)
{
    return withNumber(call, 0,
                      [&]<typename X>(TypeTag<X>) -> AggregateFunctionPtr
                      {
                          return withNumber(
                              call, 1,
                              [&]<typename Y>(TypeTag<Y>) -> AggregateFunctionPtr
                              { return std::make_shared<CovarianceFunction<X, Y>>(kind); });
                      });
}

AggregateFunctionPtr anyLast(const AggregateCall& call)
{
    const TypeId type = call.arguments[0].type;
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                        { return std::make_shared<ChosenValueFunction<T, KeepLast>>(type); });
}

template <typename Keep>
AggregateFunctionPtr argExtreme(const AggregateCall& call)
{
    const TypeId arg_type = call.arguments[0].type;
    return dispatchType(
        call.arguments[1].type,
        [&]<typename Value>(TypeTag<Value>) -> AggregateFunctionPtr
        {
            if (isString(arg_type))
            {
                return std::make_shared<ArgExtremeFunction<std::string_view, Value, Keep>>(
                    arg_type);
            }
            return std::make_shared<ArgExtremeFunction<FixedArgBits, Value, Keep>>(arg_type);
        });
}

AggregateFunctionPtr anyHeavy(const AggregateCall& call)
{
    const TypeId type = call.arguments[0].type;
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                        { return std::make_shared<AnyHeavyFunction<T>>(type); });
}

template <typename Operation>
AggregateFunctionPtr groupBit(const AggregateCall& call)
{
    const TypeId type = call.arguments[0].type;
    return withInteger(call, 0,
                       [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                       { return std::make_shared<GroupBitFunction<T, Operation>>(type); });
}

/// Where a moment is NULL: the reference's `result` text of each.
constexpr const char* kPopulationResult = "Float64; NULL over no rows";
constexpr const char* kSampleResult = "Float64; NULL over fewer than 2 rows";
constexpr const char* kMomentsExactness =
    "two passes per run of up to 256 rows of a group, Welford's update for scattered rows, "
    "Chan et al.'s merge (stable)";
constexpr const char* kChosenState = "the value (strings: 16 bytes and the bytes)";

}  // namespace

AggregateFunctionPtr createSum(const AggregateCall& call)
{
    return sum<SumOverflow::kThrow>(call);
}

void addStatisticsFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    entries.push_back({.name = "varPop",
                       .aliases = {"var_pop"},
                       .signature = "varPop(x)",
                       .result = kPopulationResult,
                       .exactness = kMomentsExactness,
                       .state = "24 bytes",
                       .merge = "O(1)",
                       .create = variance<VarianceKind::kVarPop>});
    entries.push_back({.name = "varSamp",
                       .aliases = {"var_samp", "variance"},
                       .signature = "varSamp(x)",
                       .result = kSampleResult,
                       .exactness = kMomentsExactness,
                       .state = "24 bytes",
                       .merge = "O(1)",
                       .create = variance<VarianceKind::kVarSamp>});
    entries.push_back({.name = "stddevPop",
                       .aliases = {"stddev_pop"},
                       .signature = "stddevPop(x)",
                       .result = kPopulationResult,
                       .exactness = kMomentsExactness,
                       .state = "24 bytes",
                       .merge = "O(1)",
                       .create = variance<VarianceKind::kStddevPop>});
    entries.push_back({.name = "stddevSamp",
                       .aliases = {"stddev_samp", "stddev"},
                       .signature = "stddevSamp(x)",
                       .result = kSampleResult,
                       .exactness = kMomentsExactness,
                       .state = "24 bytes",
                       .merge = "O(1)",
                       .create = variance<VarianceKind::kStddevSamp>});
    entries.push_back({.name = "covarPop",
                       .aliases = {"covar_pop"},
                       .signature = "covarPop(x, y)",
                       .result = kPopulationResult,
                       .exactness = kMomentsExactness,
                       .state = "48 bytes",
                       .merge = "O(1)",
                       .min_arguments = 2,
                       .max_arguments = 2,
                       .create = covariance<CovarianceKind::kCovarPop>});
    entries.push_back({.name = "covarSamp",
                       .aliases = {"covar_samp"},
                       .signature = "covarSamp(x, y)",
                       .result = kSampleResult,
                       .exactness = kMomentsExactness,
                       .state = "48 bytes",
                       .merge = "O(1)",
                       .min_arguments = 2,
                       .max_arguments = 2,
                       .create = covariance<CovarianceKind::kCovarSamp>});
    entries.push_back({.name = "corr",
                       .signature = "corr(x, y)",
                       .result = "Float64; NULL where x or y has no variance",
                       .exactness = kMomentsExactness,
                       .state = "48 bytes",
                       .merge = "O(1)",
                       .min_arguments = 2,
                       .max_arguments = 2,
                       .create = covariance<CovarianceKind::kCorr>});
    entries.push_back({.name = "anyLast",
                       .signature = "anyLast(x)",
                       .result = "the argument's type",
                       .exactness = "the last row's value",
                       .state = kChosenState,
                       .merge = "O(1)",
                       .create = anyLast});
    entries.push_back({.name = "argMin",
                       .signature = "argMin(arg, value)",
                       .result = "arg's type",
                       .exactness = "exact; ties keep the first row",
                       .state = "arg, value and a flag (strings: views)",
                       .merge = "O(1)",
                       .min_arguments = 2,
                       .max_arguments = 2,
                       .create = argExtreme<KeepMinimum>});
    entries.push_back({.name = "argMax",
                       .signature = "argMax(arg, value)",
                       .result = "arg's type",
                       .exactness = "exact; ties keep the first row",
                       .state = "arg, value and a flag (strings: views)",
                       .merge = "O(1)",
                       .min_arguments = 2,
                       .max_arguments = 2,
                       .create = argExtreme<KeepMaximum>});
    entries.push_back({.name = "anyHeavy",
                       .signature = "anyHeavy(x)",
                       .result = "the argument's type",
                       .exactness = "the majority value where there is one, else some row's value",
                       .state = "the candidate, its weight and a flag",
                       .merge = "O(1)",
                       .create = anyHeavy});
    entries.push_back({.name = "groupBitAnd",
                       .signature = "groupBitAnd(x)",
                       .result = "the argument's (integer) type",
                       .exactness = "exact",
                       .state = "the value",
                       .merge = "O(1)",
                       .ignores_duplicates = true,
                       .create = groupBit<BitAnd>});
    entries.push_back({.name = "groupBitOr",
                       .signature = "groupBitOr(x)",
                       .result = "the argument's (integer) type",
                       .exactness = "exact",
                       .state = "the value",
                       .merge = "O(1)",
                       .ignores_duplicates = true,
                       .create = groupBit<BitOr>});
    entries.push_back({.name = "groupBitXor",
                       .signature = "groupBitXor(x)",
                       .result = "the argument's (integer) type",
                       .exactness = "exact",
                       .state = "the value",
                       .merge = "O(1)",
                       .create = groupBit<BitXor>});
    entries.push_back({.name = "sumWithOverflow",
                       .signature = "sumWithOverflow(x)",
                       .result = "Int64 / UInt64 / Float64 (wraps on overflow)",
                       .exactness = "exact for integers",
                       .state = "8 bytes",
                       .merge = "O(1)",
                       .create = sum<SumOverflow::kWrap>});
}

}  // namespace granary
