#include "reference_aggregator.h"

#include <cmath>
#include <cstdio>

namespace granary::testing
{

Value valueAt(const ColumnView& column, size_t row)
{
    return dispatchType(column.type,
                        [&]<typename T>(TypeTag<T>) -> Value
                        {
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                return std::string(column.stringAt(row));
                            }
                            else
                            {
                                return static_cast<long double>(column.valueAt<T>(row));
                            }
                        });
}

std::string printValue(const Value& value)
{
    if (const auto* number = std::get_if<long double>(&value))
    {
        char text[64];
        std::snprintf(text, sizeof(text), "%.21Lg", *number);
        return text;
    }
    return "'" + std::get<std::string>(value) + "'";
}

namespace
{

std::string groupKey(const std::vector<ColumnView>& keys, size_t row)
{
    std::string key;
    for (const ColumnView& column : keys)
    {
        key += printValue(valueAt(column, row));
        key += '\x1f';
    }
    return key;
}

Expected computeExpected(const AggregateSpec& spec, const ColumnView* argument,
                         const std::vector<size_t>& rows)
{
    Expected expected;
    const std::string& f = spec.function;
    // fDistinct: f over the first row of each distinct value.
    constexpr std::string_view kDistinct = "Distinct";
    if (f.ends_with(kDistinct))
    {
        std::set<std::string> seen;
        std::vector<size_t> distinct_rows;
        for (size_t row : rows)
        {
            if (seen.insert(printValue(valueAt(*argument, row))).second)
            {
                distinct_rows.push_back(row);
            }
        }
        const AggregateSpec base{f.substr(0, f.size() - kDistinct.size()), spec.argument};
        return computeExpected(base, argument, distinct_rows);
    }
    if (f == "count")
    {
        expected.value = static_cast<long double>(rows.size());
        return expected;
    }
    const TypeId type = argument->type;
    if (f == "sum")
    {
        if (isFloat(type))
        {
            long double sum = 0;
            for (size_t row : rows)
            {
                sum += std::get<long double>(valueAt(*argument, row));
            }
            expected.value = sum;
            expected.is_float_sum = true;
        }
        else if (isSignedInteger(type))
        {
            uint64_t sum = 0;  // wraps like Int64 addition in two's complement
            for (size_t row : rows)
            {
                sum += static_cast<uint64_t>(
                    static_cast<int64_t>(std::get<long double>(valueAt(*argument, row))));
            }
            expected.value = static_cast<long double>(static_cast<int64_t>(sum));
        }
        else
        {
            uint64_t sum = 0;
            for (size_t row : rows)
            {
                sum += static_cast<uint64_t>(std::get<long double>(valueAt(*argument, row)));
            }
            expected.value = static_cast<long double>(sum);
        }
        return expected;
    }
    if (f == "avg")
    {
        __int128 integer_sum = 0;
        long double float_sum = 0;
        for (size_t row : rows)
        {
            const long double v = std::get<long double>(valueAt(*argument, row));
            if (isFloat(type))
            {
                float_sum += v;
            }
            else
            {
                integer_sum += static_cast<__int128>(v);
            }
        }
        const long double sum = isFloat(type) ? float_sum : static_cast<long double>(integer_sum);
        expected.value = sum / static_cast<long double>(rows.size());
        expected.is_float_sum = true;
        return expected;
    }
    if (f == "min" || f == "max")
    {
        Value best = valueAt(*argument, rows.front());
        for (size_t row : rows)
        {
            const Value v = valueAt(*argument, row);
            if (f == "min" ? v < best : best < v)
            {
                best = v;
            }
        }
        expected.value = best;
        return expected;
    }
    if (f == "any")
    {
        for (size_t row : rows)
        {
            expected.any_of.insert(printValue(valueAt(*argument, row)));
        }
        return expected;
    }
    if (f == "uniqExact")
    {
        std::set<std::string> distinct;
        for (size_t row : rows)
        {
            distinct.insert(printValue(valueAt(*argument, row)));
        }
        expected.value = static_cast<long double>(distinct.size());
        return expected;
    }
    throw std::logic_error("reference: unknown function " + f);
}

}  // namespace

ReferenceResult referenceAggregate(const BlockView& input, const std::vector<std::string>& keys,
                                   const std::vector<AggregateSpec>& aggregates)
{
    std::vector<ColumnView> key_columns;
    for (const std::string& key : keys)
    {
        key_columns.push_back(*input.find(key));
    }
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t row = 0; row < input.rows(); ++row)
    {
        groups[groupKey(key_columns, row)].push_back(row);
    }
    if (keys.empty())
    {
        groups[""];  // aggregation without keys returns one row even over no input
    }
    ReferenceResult result;
    for (const auto& [key, rows] : groups)
    {
        std::vector<Expected>& expected = result[key];
        for (const AggregateSpec& spec : aggregates)
        {
            std::optional<ColumnView> argument;
            if (!spec.argument.empty())
            {
                argument = input.find(spec.argument);
            }
            if (rows.empty())
            {
                Expected empty;
                empty.value = spec.function == "avg" ? std::nanl("") : 0.0L;
                empty.is_float_sum = spec.function == "avg";
                expected.push_back(empty);
                continue;
            }
            expected.push_back(computeExpected(spec, argument ? &*argument : nullptr, rows));
        }
    }
    return result;
}

std::string compareWithReference(const Block& result, size_t key_count,
                                 const std::vector<AggregateSpec>& aggregates,
                                 const ReferenceResult& reference)
{
    const BlockView view = BlockView::of(result);
    if (result.rows() != reference.size())
    {
        return "result has " + std::to_string(result.rows()) + " groups, reference " +
               std::to_string(reference.size());
    }
    std::vector<ColumnView> key_columns;
    for (size_t k = 0; k < key_count; ++k)
    {
        key_columns.push_back(view.columns[k].column);
    }
    std::set<std::string> seen;
    for (size_t row = 0; row < result.rows(); ++row)
    {
        const std::string key = groupKey(key_columns, row);
        if (!seen.insert(key).second)
        {
            return "group listed twice: " + key;
        }
        auto it = reference.find(key);
        if (it == reference.end())
        {
            return "unexpected group " + key;
        }
        for (size_t a = 0; a < aggregates.size(); ++a)
        {
            const Expected& expected = it->second[a];
            const Value actual = valueAt(view.columns[key_count + a].column, row);
            const std::string where = " in group " + key + " for " + aggregates[a].function + "(" +
                                      aggregates[a].argument + ")";
            if (aggregates[a].function == "any")
            {
                if (!expected.any_of.count(printValue(actual)))
                {
                    return "any() returned a value not in the group" + where;
                }
                continue;
            }
            if (expected.is_float_sum)
            {
                const long double e = std::get<long double>(expected.value);
                const long double v = std::get<long double>(actual);
                if (std::isnan(e) && std::isnan(v))
                {
                    continue;
                }
                if (std::fabs(e - v) > 1e-9L * std::max<long double>(1, std::fabs(e)))
                {
                    return "expected " + printValue(expected.value) + ", got " +
                           printValue(actual) + where;
                }
                continue;
            }
            if (actual != expected.value)
            {
                return "expected " + printValue(expected.value) + ", got " + printValue(actual) +
                       where;
            }
        }
    }
    return {};
}

}  // namespace granary::testing
