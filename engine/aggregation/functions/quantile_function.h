#pragma once

#include <cmath>
#include <string>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// The quantile functions over a column of T: the state is a Summary of the values seen
/// (ExactQuantile<T>, ReservoirSample, TDigest), whose quantile(level) is the result. NaN
/// values are skipped (they have no rank).
template <typename Summary, typename T>
class QuantileFunction final : public AggregateFunctionBase<QuantileFunction<Summary, T>, Summary>
{
    using Base = AggregateFunctionBase<QuantileFunction<Summary, T>, Summary>;

public:
    /// `name`: the function's, for messages; `level` in [0, 1].
    QuantileFunction(std::string name, double level, TypeId result_type)
        : name_(std::move(name)), level_(level), result_type_(result_type)
    {
    }

    std::string name() const override { return name_; }
    TypeId resultType() const override { return result_type_; }

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
    void insertResult(Summary& summary, Column& to) const { to.append(summary.quantile(level_)); }

    void writeState(const Summary& summary, std::string& out) const { summary.serialize(out); }
    Summary readState(StateReader& reader) const { return Summary::read(reader); }
    void mergeReadState(Summary& target, const Summary& source, Arena&) const
    {
        target.merge(source);
    }

private:
    std::string name_;
    double level_;
    TypeId result_type_;
};

}  // namespace granary
