#include "engine/aggregation/aggregate_function_factory.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "engine/aggregation/functions/avg.h"
#include "engine/aggregation/functions/count.h"
#include "engine/aggregation/functions/min_max_any.h"
#include "engine/aggregation/functions/sum.h"
#include "engine/aggregation/functions/uniq_exact.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

std::string lower(std::string_view text)
{
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return result;
}

void expectArgumentCount(std::string_view function, const std::vector<AggregateArgument>& args,
                         size_t count)
{
    if (args.size() != count)
    {
        throw Exception(ErrorCode::kBadArguments, "aggregate function " + std::string(function) +
                                                      " takes " + std::to_string(count) +
                                                      " argument(s), got " +
                                                      std::to_string(args.size()));
    }
}

[[noreturn]] void typeMismatch(std::string_view function, const AggregateArgument& argument,
                               std::string_view expected)
{
    throw Exception(ErrorCode::kTypeMismatch,
                    "aggregate function " + std::string(function) + " cannot take column '" +
                        argument.name + "' of type " + std::string(typeName(argument.type)) +
                        ": expected " + std::string(expected));
}

template <template <typename> class Function>
AggregateFunctionPtr numeric(std::string_view function, const AggregateArgument& argument)
{
    const TypeId type = argument.type;
    if (isString(type) || type == TypeId::Date || type == TypeId::DateTime)
    {
        typeMismatch(function, argument, "a number");
    }
    return dispatchFixedType(type,
                             [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                             { return std::make_shared<Function<T>>(); });
}

template <typename Keep>
AggregateFunctionPtr chosenValue(const AggregateArgument& argument)
{
    return dispatchType(argument.type,
                        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                        { return std::make_shared<ChosenValueFunction<T, Keep>>(argument.type); });
}

AggregateFunctionPtr uniqExact(const AggregateArgument& argument, const DistinctSettings& settings)
{
    return dispatchType(
        argument.type,
        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
        {
            if constexpr (std::is_same_v<T, std::string_view>)
            {
                return std::make_shared<UniqExactFunction<StringDistinctTraits>>(settings);
            }
            else
            {
                return std::make_shared<UniqExactFunction<NumberDistinctTraits<T>>>(settings);
            }
        });
}

bool isUniqExactName(const std::string& name)
{
    return name == "uniqexact" || name == "uniq" || name == "count_distinct";
}

}  // namespace

bool isAggregateFunctionName(std::string_view function)
{
    const std::string name = lower(function);
    return name == "count" || name == "sum" || name == "avg" || name == "min" || name == "max" ||
           name == "any" || isUniqExactName(name);
}

bool isDistinctCountName(std::string_view function)
{
    return isUniqExactName(lower(function));
}

AggregateFunctionPtr createAggregateFunction(std::string_view function,
                                             const std::vector<AggregateArgument>& arguments,
                                             const DistinctSettings& distinct_settings)
{
    const std::string name = lower(function);
    if (name == "count")
    {
        if (arguments.size() > 1)
        {
            expectArgumentCount(function, arguments, 1);
        }
        return std::make_shared<CountFunction>();
    }
    if (name == "sum")
    {
        expectArgumentCount(function, arguments, 1);
        return numeric<SumFunction>(function, arguments[0]);
    }
    if (name == "avg")
    {
        expectArgumentCount(function, arguments, 1);
        return numeric<AvgFunction>(function, arguments[0]);
    }
    if (name == "min")
    {
        expectArgumentCount(function, arguments, 1);
        return chosenValue<KeepMinimum>(arguments[0]);
    }
    if (name == "max")
    {
        expectArgumentCount(function, arguments, 1);
        return chosenValue<KeepMaximum>(arguments[0]);
    }
    if (name == "any")
    {
        expectArgumentCount(function, arguments, 1);
        return chosenValue<KeepFirst>(arguments[0]);
    }
    if (isUniqExactName(name))
    {
        expectArgumentCount(function, arguments, 1);
        return uniqExact(arguments[0], distinct_settings);
    }
    throw Exception(ErrorCode::kUnknownFunction,
                    "unknown aggregate function '" + std::string(function) + "'");
}

}  // namespace granary
