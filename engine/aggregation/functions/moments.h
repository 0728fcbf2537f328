#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
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

/// Rows of one state at most per chunk, and the shortest run of one state's rows in a keyed
/// batch worth one: a chunk's moments are taken in two passes (its means, then the deviations
/// from them) and merged in by Chan et al.'s formula, as stable as Welford's update per row
/// without its division per row on one chain of dependent instructions.
inline constexpr size_t kMomentChunkRows = 256;
inline constexpr size_t kMomentMinRunRows = 16;

/// The batch loops of the moment functions: Derived provides
///   static State stateOfRows(const ColumnView* arguments, size_t first_row, size_t count);
/// for count <= kMomentChunkRows, and the per-row add and mergeStates of AggregateFunctionBase.
template <typename Derived, typename State>
class MomentsFunctionBase : public AggregateFunctionBase<Derived, State>
{
    using Base = AggregateFunctionBase<Derived, State>;

public:
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena&) const override
    {
        addRun(Base::state(place), arguments, first_row, count);
    }

    /// Runs of rows of one state (a frequent key, consecutive rows of a group) go by chunks,
    /// scattered rows one by one.
    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override
    {
        size_t row = 0;
        while (row < count)
        {
            size_t run_end = row + 1;
            while (run_end < count && places[run_end] == places[row])
            {
                ++run_end;
            }
            State& state = Base::state(places[row] + state_offset);
            if (run_end - row >= kMomentMinRunRows)
            {
                addRun(state, arguments, first_row + row, run_end - row);
            }
            else
            {
                for (size_t i = row; i < run_end; ++i)
                {
                    Derived::add(state, arguments, first_row + i, arena);
                }
            }
            row = run_end;
        }
    }

private:
    static void addRun(State& state, const ColumnView* arguments, size_t first_row, size_t count)
    {
        for (size_t done = 0; done < count; done += kMomentChunkRows)
        {
            const size_t chunk = std::min(kMomentChunkRows, count - done);
            Derived::mergeStates(state, Derived::stateOfRows(arguments, first_row + done, chunk));
        }
    }
};

/// The values of rows [first_row, first_row + count) of `column` as doubles, and their mean.
template <typename T>
double readChunk(const ColumnView& column, size_t first_row, size_t count, double* values)
{
    double sum = 0;
    for (size_t i = 0; i < count; ++i)
    {
        values[i] = static_cast<double>(column.valueAt<T>(first_row + i));
        sum += values[i];
    }
    return sum / static_cast<double>(count);
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
class VarianceFunction final : public MomentsFunctionBase<VarianceFunction<T>, VarianceState>
{
public:
    explicit VarianceFunction(VarianceKind kind) : kind_(kind) {}

    std::string name() const override
    {
        static constexpr std::array<const char*, 4> kNames = {"varPop", "varSamp", "stddevPop",
                                                              "stddevSamp"};
        return kNames[static_cast<size_t>(kind_)];
    }
    DataType resultType() const override { return TypeId::Float64; }
    bool resultMayBeNull() const override { return true; }

    static void add(VarianceState& state, const ColumnView* arguments, size_t row, Arena&)
    {
        ++state.count;
        state.x.add(static_cast<double>(arguments[0].valueAt<T>(row)), state.count);
    }
    static VarianceState stateOfRows(const ColumnView* arguments, size_t first_row, size_t count)
    {
        std::array<double, kMomentChunkRows> values;
        VarianceState chunk{count,
                            {readChunk<T>(arguments[0], first_row, count, values.data()), 0}};
        for (size_t i = 0; i < count; ++i)
        {
            const double deviation = values[i] - chunk.x.mean;
            chunk.x.m2 += deviation * deviation;
        }
        return chunk;
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
    : public MomentsFunctionBase<CovarianceFunction<X, Y>, CovarianceState>
{
public:
    explicit CovarianceFunction(CovarianceKind kind) : kind_(kind) {}

    std::string name() const override
    {
        static constexpr std::array<const char*, 3> kNames = {"covarPop", "covarSamp", "corr"};
        return kNames[static_cast<size_t>(kind_)];
    }
    DataType resultType() const override { return TypeId::Float64; }
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
    static CovarianceState stateOfRows(const ColumnView* arguments, size_t first_row, size_t count)
    {
        std::array<double, kMomentChunkRows> xs;
        std::array<double, kMomentChunkRows> ys;
        CovarianceState chunk;
        chunk.count = count;
        chunk.x.mean = readChunk<X>(arguments[0], first_row, count, xs.data());
        chunk.y.mean = readChunk<Y>(arguments[1], first_row, count, ys.data());
        for (size_t i = 0; i < count; ++i)
        {
            const double x_deviation = xs[i] - chunk.x.mean;
            const double y_deviation = ys[i] - chunk.y.mean;
            chunk.x.m2 += x_deviation * x_deviation;
            chunk.y.m2 += y_deviation * y_deviation;
            chunk.co_moment += x_deviation * y_deviation;
        }
        return chunk;
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
