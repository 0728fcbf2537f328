#include "programs/scale/scaling_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "engine/common/exception.h"

namespace granary::scale
{

namespace
{

constexpr size_t kTerms = 3;  // serial, parallel, contention

std::array<double, kTerms> termValues(double threads)
{
    return {1.0, 1.0 / threads, threads - 1};
}

struct SubsetFit
{
    std::array<double, kTerms> coefficients{};
    double squared_error = std::numeric_limits<double>::infinity();
    bool feasible = false;
};

/// Weighted least squares over the terms in `used` (normal equations, Gaussian elimination with
/// partial pivoting: at most three unknowns).
SubsetFit fitSubset(std::span<const ScalingSample> samples, const std::array<bool, kTerms>& used)
{
    std::vector<size_t> terms;
    for (size_t t = 0; t < kTerms; ++t)
    {
        if (used[t])
        {
            terms.push_back(t);
        }
    }
    const size_t n = terms.size();
    std::array<std::array<double, kTerms + 1>, kTerms> system{};
    for (const ScalingSample& s : samples)
    {
        // Relative residuals: every row is divided by the measured time.
        const double weight = 1.0 / s.seconds;
        const auto values = termValues(s.threads);
        for (size_t i = 0; i < n; ++i)
        {
            for (size_t j = 0; j < n; ++j)
            {
                system[i][j] += values[terms[i]] * values[terms[j]] * weight * weight;
            }
            system[i][n] += values[terms[i]] * s.seconds * weight * weight;
        }
    }
    for (size_t col = 0; col < n; ++col)
    {
        size_t pivot = col;
        for (size_t row = col + 1; row < n; ++row)
        {
            if (std::abs(system[row][col]) > std::abs(system[pivot][col]))
            {
                pivot = row;
            }
        }
        std::swap(system[col], system[pivot]);
        if (std::abs(system[col][col]) < 1e-300)
        {
            return {};
        }
        for (size_t row = 0; row < n; ++row)
        {
            if (row == col)
            {
                continue;
            }
            const double factor = system[row][col] / system[col][col];
            for (size_t k = col; k <= n; ++k)
            {
                system[row][k] -= factor * system[col][k];
            }
        }
    }
    SubsetFit fit;
    fit.feasible = true;
    for (size_t i = 0; i < n; ++i)
    {
        const double value = system[i][n] / system[i][i];
        // Tiny negative values are rounding; clearly negative ones make the subset infeasible.
        fit.feasible = fit.feasible && value > -1e-12 * std::abs(system[i][n]) - 1e-15;
        fit.coefficients[terms[i]] = std::max(0.0, value);
    }
    fit.squared_error = 0;
    for (const ScalingSample& s : samples)
    {
        const auto values = termValues(s.threads);
        double predicted = 0;
        for (size_t t = 0; t < kTerms; ++t)
        {
            predicted += fit.coefficients[t] * values[t];
        }
        const double relative = (predicted - s.seconds) / s.seconds;
        fit.squared_error += relative * relative;
    }
    return fit;
}

/// The best feasible fit among the non-empty subsets of the allowed terms that keep the
/// parallel term (a query that does not speed up at all still has a T(1)).
SubsetFit bestNonNegativeFit(std::span<const ScalingSample> samples, bool allow_contention)
{
    SubsetFit best;
    for (unsigned mask = 0; mask < (1u << kTerms); ++mask)
    {
        const std::array<bool, kTerms> used = {(mask & 1u) != 0, (mask & 2u) != 0,
                                               (mask & 4u) != 0};
        if ((!used[0] && !used[1]) || (used[2] && !allow_contention))
        {
            continue;
        }
        SubsetFit fit = fitSubset(samples, used);
        if (fit.feasible && fit.squared_error < best.squared_error)
        {
            best = fit;
        }
    }
    return best;
}

}  // namespace

double ScalingModel::time(double threads) const
{
    return serial_seconds + parallel_seconds / threads + contention_seconds * (threads - 1);
}

double ScalingModel::speedup(double threads) const
{
    return time(1) / time(threads);
}

double ScalingModel::serialFraction() const
{
    return serial_seconds / time(1);
}

double ScalingModel::relativeContention() const
{
    return contention_seconds / time(1);
}

double ScalingModel::optimalThreads() const
{
    if (contention_seconds <= 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return std::max(1.0, std::sqrt(parallel_seconds / contention_seconds));
}

ScalingModel fitScalingModel(std::span<const ScalingSample> samples)
{
    std::set<double> distinct_threads;
    for (const ScalingSample& s : samples)
    {
        if (!(s.seconds > 0) || !(s.threads >= 1) || !std::isfinite(s.seconds))
        {
            throw Exception(ErrorCode::kBadArguments, "scaling model: a sample at " +
                                                          std::to_string(s.threads) +
                                                          " threads has no positive time");
        }
        distinct_threads.insert(s.threads);
    }
    if (distinct_threads.size() < 2)
    {
        throw Exception(ErrorCode::kBadArguments,
                        "scaling model: needs samples at two or more distinct thread counts, got " +
                            std::to_string(distinct_threads.size()));
    }
    SubsetFit chosen = bestNonNegativeFit(samples, false);
    bool uses_contention = false;
    if (distinct_threads.size() >= 4)
    {
        const SubsetFit with_contention = bestNonNegativeFit(samples, true);
        if (with_contention.coefficients[2] > 0 &&
            with_contention.squared_error <= 0.5 * chosen.squared_error)
        {
            chosen = with_contention;
            uses_contention = true;
        }
    }
    ScalingModel model;
    model.serial_seconds = chosen.coefficients[0];
    model.parallel_seconds = chosen.coefficients[1];
    model.contention_seconds = chosen.coefficients[2];
    model.uses_contention = uses_contention;
    model.samples = samples.size();
    model.rms_relative_error =
        std::sqrt(chosen.squared_error / static_cast<double>(samples.size()));
    return model;
}

}  // namespace granary::scale
