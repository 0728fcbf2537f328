#include "engine/aggregation/functions/quantile_functions.h"

#include <charconv>
#include <memory>
#include <string>

#include "engine/aggregation/functions/quantile_exact.h"
#include "engine/aggregation/functions/quantile_function.h"
#include "engine/aggregation/functions/reservoir_sample.h"
#include "engine/aggregation/functions/t_digest.h"

namespace granary
{
namespace
{

/// The level of a call without one, and of the median functions.
constexpr double kMedianLevel = 0.5;

/// The call's level parameter, or the median's; kBadArguments outside [0, 1] (NaN included).
double levelOf(const AggregateCall& call)
{
    if (call.parameters.empty())
    {
        return kMedianLevel;
    }
    const double level = call.parameters[0];
    if (!(level >= 0 && level <= 1))
    {
        char text[32];
        const auto printed = std::to_chars(text, text + sizeof(text), level);
        throwBadAggregateCall(call, "a level in [0, 1], got " + std::string(text, printed.ptr));
    }
    return level;
}

/// The argument's type: a number, Date or DateTime (their day or second numbers).
TypeId quantileArgumentType(const AggregateCall& call)
{
    const AggregateArgument& argument = call.arguments[0];
    if (isString(argument.type))
    {
        throwAggregateTypeMismatch(call, argument, "a number, Date or DateTime");
    }
    return argument.type;
}

/// quantileExact returns one of the values, in the argument's type.
AggregateFunctionPtr createExact(const AggregateCall& call, const std::string& name, double level)
{
    const TypeId type = quantileArgumentType(call);
    return dispatchFixedType(
        type,
        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
        { return std::make_shared<QuantileFunction<ExactQuantile<T>, T>>(name, level, type); });
}

/// The estimates are interpolated, so Float64.
template <typename Sketch>
AggregateFunctionPtr createEstimate(const AggregateCall& call, const std::string& name,
                                    double level)
{
    return dispatchFixedType(
        quantileArgumentType(call),
        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
        { return std::make_shared<QuantileFunction<Sketch, T>>(name, level, TypeId::Float64); });
}

using CreateQuantile = AggregateFunctionPtr (*)(const AggregateCall&, const std::string& name,
                                                double level);

/// What the reference says of one quantile function; its median shares all of it.
struct QuantileDescription
{
    std::string name;
    std::string median_name;
    std::string result;
    std::string exactness;
    std::string state;
    std::string merge;
    CreateQuantile create;
};

void addQuantileFunction(std::vector<AggregateFunctionEntry>& entries,
                         const QuantileDescription& function)
{
    const std::string name = function.name;
    const std::string median_name = function.median_name;
    const CreateQuantile create = function.create;
    entries.push_back({.name = name,
                       .signature = name + "(level)(x), " + name + "(x) (level 0.5)",
                       .result = function.result,
                       .exactness = function.exactness,
                       .state = function.state,
                       .merge = function.merge,
                       .max_parameters = 1,
                       .create = [name, create](const AggregateCall& call)
                       { return create(call, name, levelOf(call)); }});
    entries.push_back({.name = median_name,
                       .signature = median_name + "(x) = " + name + "(0.5)(x)",
                       .result = function.result,
                       .exactness = function.exactness,
                       .state = function.state,
                       .merge = function.merge,
                       .create = [median_name, create](const AggregateCall& call)
                       { return create(call, median_name, kMedianLevel); }});
}

}  // namespace

void addQuantileFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    addQuantileFunction(
        entries, {"quantileExact", "medianExact",
                  "the argument's type (one of the values; NaN or 0 over none)",
                  "exact: the element at position floor(level * n) of the n values sorted (the "
                  "last for level 1); NaN is skipped",
                  "every value", "O(values)", createExact});
    addQuantileFunction(
        entries, {"quantile", "median", "Float64",
                  "a uniform sample of " + std::to_string(ReservoirSample::kCapacity) +
                      " values, interpolated: exact up to that many, else a rank error of standard "
                      "deviation sqrt(level * (1 - level) / " +
                      std::to_string(ReservoirSample::kCapacity) +
                      ") <= 0.0055; reproducible for a given split of the rows into partial states",
                  "the sample (up to 64 KiB)", "O(sample)", createEstimate<ReservoirSample>});
    addQuantileFunction(
        entries,
        {"quantileTDigest", "medianTDigest", "Float64",
         "t-digest of compression 100: rank error within the centroids' width at the level, "
         "2 pi / 100 * sqrt(level * (1 - level)) <= 0.031; minimum and maximum exact",
         "up to " + std::to_string(TDigest::kMaxCentroids) + " centroids and " +
             std::to_string(TDigest::kBufferValues) + " buffered values (17.6 KiB)",
         "O(centroids)", createEstimate<TDigest>});
}

}  // namespace granary
