#include "engine/aggregation/functions/quantile_functions.h"

#include <charconv>
#include <memory>
#include <string>
#include <vector>

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

/// The most levels quantiles(...)(x) takes.
constexpr size_t kMaxLevels = 1024;

/// `level` unless outside [0, 1] (NaN included): kBadArguments.
double checkedLevel(const AggregateCall& call, double level)
{
    if (!(level >= 0 && level <= 1))
    {
        char text[32];
        const auto printed = std::to_chars(text, text + sizeof(text), level);
        throwBadAggregateCall(call, "a level in [0, 1], got " + std::string(text, printed.ptr));
    }
    return level;
}

/// The call's levels: its parameters, each checked, or the median's when it has none.
std::vector<double> levelsOf(const AggregateCall& call)
{
    if (call.parameters.empty())
    {
        return {kMedianLevel};
    }
    std::vector<double> levels;
    for (const double level : call.parameters)
    {
        levels.push_back(checkedLevel(call, level));
    }
    return levels;
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

/// What a quantile function's call makes: its name, levels and whether the result is an
/// Array (one element per level).
struct QuantileShape
{
    std::string name;
    std::vector<double> levels;
    bool as_array = false;
};

/// quantileExact returns one of the values, in the argument's type.
AggregateFunctionPtr createExact(const AggregateCall& call, QuantileShape shape)
{
    const TypeId type = quantileArgumentType(call);
    return dispatchFixedType(type,
                             [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                             {
                                 return std::make_shared<QuantileFunction<ExactQuantile<T>, T>>(
                                     shape.name, shape.levels, type, shape.as_array);
                             });
}

/// The estimates are interpolated, so Float64.
template <typename Sketch>
AggregateFunctionPtr createEstimate(const AggregateCall& call, QuantileShape shape)
{
    return dispatchFixedType(quantileArgumentType(call),
                             [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                             {
                                 return std::make_shared<QuantileFunction<Sketch, T>>(
                                     shape.name, shape.levels, TypeId::Float64, shape.as_array);
                             });
}

using CreateQuantile = AggregateFunctionPtr (*)(const AggregateCall&, QuantileShape shape);

/// What the reference says of one quantile function; its median and its several-levels form
/// (quantiles...) share all of it.
struct QuantileDescription
{
    std::string name;
    std::string median_name;
    std::string levels_name;
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
    const std::string levels_name = function.levels_name;
    const CreateQuantile create = function.create;
    entries.push_back({.name = name,
                       .signature = name + "(level)(x), " + name + "(x) (level 0.5)",
                       .result = function.result,
                       .exactness = function.exactness,
                       .state = function.state,
                       .merge = function.merge,
                       .max_parameters = 1,
                       .create = [name, create](const AggregateCall& call) {
                           return create(call, {name, levelsOf(call)});
                       }});
    entries.push_back({.name = median_name,
                       .signature = median_name + "(x) = " + name + "(0.5)(x)",
                       .result = function.result,
                       .exactness = function.exactness,
                       .state = function.state,
                       .merge = function.merge,
                       .create = [median_name, create](const AggregateCall& call) {
                           return create(call, {median_name, {kMedianLevel}});
                       }});
    entries.push_back({.name = levels_name,
                       .signature = levels_name + "(level1, level2, ...)(x)",
                       .result = "Array of " + function.result + ", one element per level",
                       .exactness = "as " + name,
                       .state = "as " + name + " (one state for every level)",
                       .merge = function.merge,
                       .min_parameters = 1,
                       .max_parameters = kMaxLevels,
                       .empty_is_null = false,
                       .empty_value = "NaN at every level; quantilesExact of integers: 0",
                       .create = [levels_name, create](const AggregateCall& call) {
                           return create(call, {levels_name, levelsOf(call), true});
                       }});
}

}  // namespace

void addQuantileFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    addQuantileFunction(
        entries, {"quantileExact", "medianExact", "quantilesExact",
                  "the argument's type (one of the values; NaN or 0 over none)",
                  "exact: the element at position floor(level * n) of the n values sorted (the "
                  "last for level 1); NaN is skipped",
                  "every value", "O(values)", createExact});
    addQuantileFunction(
        entries, {"quantile", "median", "quantiles", "Float64",
                  "a uniform sample of " + std::to_string(ReservoirSample::kCapacity) +
                      " values, interpolated: exact up to that many, else a rank error of standard "
                      "deviation sqrt(level * (1 - level) / " +
                      std::to_string(ReservoirSample::kCapacity) +
                      ") <= 0.0055; reproducible for a given split of the rows into partial states",
                  "the sample (up to 64 KiB)", "O(sample)", createEstimate<ReservoirSample>});
    addQuantileFunction(
        entries,
        {"quantileTDigest", "medianTDigest", "quantilesTDigest", "Float64",
         "t-digest of compression 100: rank error within the centroids' width at the level, "
         "2 pi / 100 * sqrt(level * (1 - level)) <= 0.031; minimum and maximum exact",
         "up to " + std::to_string(TDigest::kMaxCentroids) + " centroids and " +
             std::to_string(TDigest::kBufferValues) + " buffered values (17.6 KiB)",
         "O(centroids)", createEstimate<TDigest>});
}

}  // namespace granary
