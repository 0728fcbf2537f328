#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// The mean of some values and M2, the sum of their squared deviations from it: updated per
/// value by Welford's method and merged by Chan et al.'s pairwise formula, so that a variance
/// never comes from the difference of two large sums of squares (which loses every digit
/// when the mean is large against the spread).
struct CentralMoments
{
    double mean = 0;
    double m2 = 0;

    /// Adds `value` as the count-th value; returns its deviation from the previous mean.
    double add(double value, uint64_t count)
    {
        const double delta = value - mean;
        mean += delta / static_cast<double>(count);
        m2 += delta * (value - mean);
        return delta;
    }
    /// Folds in `other`, of other_count values (> 0), into these of `count` values; returns
    /// the difference of the two means.
    double merge(const CentralMoments& other, uint64_t count, uint64_t other_count)
    {
        const double delta = other.mean - mean;
        const double other_share =
            static_cast<double>(other_count) / static_cast<double>(count + other_count);
        mean += delta * other_share;
        m2 += other.m2 + delta * delta * static_cast<double>(count) * other_share;
        return delta;
    }
};

/// State of varPop, varSamp, stddevPop and stddevSamp: 24 bytes.
struct VarianceState
{
    uint64_t count = 0;
    CentralMoments x;
};

/// State of covarPop, covarSamp and corr: 48 bytes. `co_moment` is the sum of the products of
/// both deviations from their means.
struct CovarianceState
{
    uint64_t count = 0;
    CentralMoments x;
    CentralMoments y;
    double co_moment = 0;
};

/// Appends `result`, or NULL (a NaN marked NULL) where there is none.
inline void appendOrNull(Column& to, std::optional<double> result)
{
    to.append(result.value_or(std::numeric_limits<double>::quiet_NaN()));
    if (!result)
    {
        to.setNull(to.size() - 1);
    }
}

/// `sum_of_squares` divided by the count (population) or by the count less one (sample):
/// none for an empty sample or a sample of one row, as SQL's var_samp gives NULL there.
inline std::optional<double> divideByDegreesOfFreedom(double sum_of_squares, uint64_t count,
                                                      bool sample)
{
    const uint64_t degrees = sample ? count - (count > 0) : count;
    if (degrees == 0)
    {
        return std::nullopt;
    }
    return sum_of_squares / static_cast<double>(degrees);
}

enum class VarianceKind
{
    kVarPop,
    kVarSamp,
    kStddevPop,
    kStddevSamp,
};

/// varPop, varSamp, stddevPop and stddevSamp of a number column, as Float64: one template,
/// `kind` decides the finalisation. NULL where the divisor is zero (no rows; one row for the
/// samples).
template <typename T>
class VarianceFunction final : public AggregateFunctionBase<VarianceFunction<T>, VarianceState>
{
public:
    explicit VarianceFunction(VarianceKind kind) : kind_(kind) {}

    std::string name() const override
    {
        static constexpr std::array<const char*, 4> kNames = {"varPop", "varSamp", "stddevPop",
                                                              "stddevSamp"};
        return kNames[static_cast<size_t>(kind_)];
    }
    TypeId resultType() const override { return TypeId::Float64; }
    bool resultMayBeNull() const override { return true; }

    static void add(VarianceState& state, const ColumnView* arguments, size_t row, Arena&)
    {
        ++state.count;
        state.x.add(static_cast<double>(arguments[0].valueAt<T>(row)), state.count);
    }
    static void mergeStates(VarianceState& target, const VarianceState& source)
    {
        if (source.count == 0)
        {
            return;
        }
        target.x.merge(source.x, target.count, source.count);
        target.count += source.count;
    }
    void insertResult(const VarianceState& state, Column& to) const
    {
        const bool sample = kind_ == VarianceKind::kVarSamp || kind_ == VarianceKind::kStddevSamp;
        const bool root = kind_ == VarianceKind::kStddevPop || kind_ == VarianceKind::kStddevSamp;
        std::optional<double> variance = divideByDegreesOfFreedom(state.x.m2, state.count, sample);
        if (variance && root)
        {
            variance = std::sqrt(*variance);
        }
        appendOrNull(to, variance);
    }

private:
    VarianceKind kind_;
};

enum class CovarianceKind
{
    kCovarPop,
    kCovarSamp,
    kCorr,
};

/// covarPop, covarSamp and corr of two number columns, as Float64: one template, `kind`
/// decides the finalisation. NULL where the divisor is zero (no rows; one row for covarSamp;
/// a column of zero variance for corr).
template <typename X, typename Y>
class CovarianceFunction final
    : public AggregateFunctionBase<CovarianceFunction<X, Y>, CovarianceState>
{
public:
    explicit CovarianceFunction(CovarianceKind kind) : kind_(kind) {}

    std::string name() const override
    {
        static constexpr std::array<const char*, 3> kNames = {"covarPop", "covarSamp", "corr"};
        return kNames[static_cast<size_t>(kind_)];
    }
    TypeId resultType() const override { return TypeId::Float64; }
    bool resultMayBeNull() const override { return true; }

    static void add(CovarianceState& state, const ColumnView* arguments, size_t row, Arena&)
    {
        const double x = static_cast<double>(arguments[0].valueAt<X>(row));
        const double y = static_cast<double>(arguments[1].valueAt<Y>(row));
        ++state.count;
        const double x_deviation = state.x.add(x, state.count);
        state.y.add(y, state.count);
        // The old mean's deviation of x times the new mean's of y: Welford's co-moment update.
        state.co_moment += x_deviation * (y - state.y.mean);
    }
    static void mergeStates(CovarianceState& target, const CovarianceState& source)
    {
        if (source.count == 0)
        {
            return;
        }
        const double x_delta = target.x.merge(source.x, target.count, source.count);
        const double y_delta = target.y.merge(source.y, target.count, source.count);
        const double total = static_cast<double>(target.count + source.count);
        target.co_moment += source.co_moment + x_delta * y_delta *
                                                   static_cast<double>(target.count) *
                                                   static_cast<double>(source.count) / total;
        target.count += source.count;
    }
    void insertResult(const CovarianceState& state, Column& to) const
    {
        if (kind_ != CovarianceKind::kCorr)
        {
            appendOrNull(to, divideByDegreesOfFreedom(state.co_moment, state.count,
                                                      kind_ == CovarianceKind::kCovarSamp));
            return;
        }
        // Square roots taken apart, so that two tiny M2s do not underflow their product.
        const double deviations = std::sqrt(state.x.m2) * std::sqrt(state.y.m2);
        appendOrNull(to, deviations == 0 ? std::nullopt
                                         : std::optional<double>(state.co_moment / deviations));
    }

private:
    CovarianceKind kind_;
};

}  // namespace granary
