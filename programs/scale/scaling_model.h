#pragma once

#include <cstddef>
#include <span>

namespace granary::scale
{

/// A query's time at one thread count (measured, or estimated from work and span).
struct ScalingSample
{
    double threads = 1;
    double seconds = 0;
};

/// T(p) = serial + parallel / p + contention * (p - 1): Amdahl's law with a cost that grows
/// with every thread added (merges of more partials, coordination). Speedups are relative to
/// the model's own T(1), so no one-thread measurement is needed.
struct ScalingModel
{
    double serial_seconds = 0;
    double parallel_seconds = 0;
    double contention_seconds = 0;  ///< Per added thread; 0 when the data do not support it.
    bool uses_contention = false;
    double rms_relative_error = 0;  ///< Of the fit over its samples.
    size_t samples = 0;

    double time(double threads) const;
    double speedup(double threads) const;
    /// Amdahl's serial fraction f = serial / T(1).
    double serialFraction() const;
    /// Contention relative to T(1): kappa in T(p)/T(1) = f + (1-f)/p + kappa (p-1).
    double relativeContention() const;
    /// The thread count where T(p) is lowest (infinity without contention).
    double optimalThreads() const;
};

/// Fits the model by least squares on relative errors (times span decades), all three terms
/// non-negative. The contention term is kept only with at least four distinct thread counts and
/// when it at least halves the squared error of Amdahl's law alone. Needs two samples at two
/// distinct thread counts; otherwise (or for non-positive times) throws Exception(kBadArguments).
ScalingModel fitScalingModel(std::span<const ScalingSample> samples);

}  // namespace granary::scale
