#pragma once

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// The quantile functions over a column of T: the state is a Summary of the values seen
/// (ExactQuantile<T>, ReservoirSample, TDigest), whose quantile(level) is the result, or an
/// Array of the quantiles at several levels (quantiles, quantilesExact...). NaN values are
/// skipped (they have no rank).
template <typename Summary, typename T>
class QuantileFunction final : public AggregateFunctionBase<QuantileFunction<Summary, T>, Summary>
{
    using Base = AggregateFunctionBase<QuantileFunction<Summary, T>, Summary>;

public:
    /// `name`: the function's, for messages; `levels` in [0, 1]; `as_array`: the results are
    /// Arrays of `result_type` with one element per level, else the one level's quantile.
    QuantileFunction(std::string name, std::vector<double> levels, TypeId result_type,
                     bool as_array)
        : name_(std::move(name)),
          levels_(std::move(levels)),
          result_type_(result_type),
          as_array_(as_array)
    {
    }

    std::string name() const override { return name_; }
    DataType resultType() const override
    {
        return as_array_ ? DataType::array(result_type_) : DataType(result_type_);
    }

    static void add(Summary& summary, const ColumnView* arguments, size_t row, Arena&)
    {
        const T value = arguments[0].valueAt<T>(row);
        if constexpr (std::is_floating_point_v<T>)
        {
            if (std::isnan(value))
            {
                return;
            }
        }
        summary.add(value);
    }
    static void mergeStates(Summary& target, const Summary& source) { target.merge(source); }
    /// Non-const: finding a quantile reorders (or compresses) the summary.
    void insertResult(Summary& summary, Column& to) const
    {
        if (!as_array_)
        {
            to.append(summary.quantile(levels_[0]));
            return;
        }
        for (const double level : levels_)
        {
            to.child(0).append(summary.quantile(level));
        }
        to.closeNestedRow();
    }

    void writeState(const Summary& summary, std::string& out) const { summary.serialize(out); }
    Summary readState(StateReader& reader) const { return Summary::read(reader); }
    void mergeReadState(Summary& target, const Summary& source, Arena&) const
    {
        target.merge(source);
    }

private:
    std::string name_;
    std::vector<double> levels_;
    TypeId result_type_;
    bool as_array_;
};

}  // namespace granary
