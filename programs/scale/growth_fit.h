#pragma once

#include <cstddef>
#include <span>

#include "programs/scale/line_chart.h"

namespace granary::scale
{

/// y = coefficient * x^exponent, fitted by least squares on log y against log x.
struct GrowthFit
{
    double exponent = 0;
    double coefficient = 0;
    size_t samples = 0;

    /// Faster than linear beyond the noise a handful of timings carries.
    bool superlinear() const { return samples >= 3 && exponent > kSuperlinearExponent; }

    static constexpr double kSuperlinearExponent = 1.15;
};

/// Uses only points with x > 0 and y > 0; needs two distinct x among them, else samples is the
/// count used and the exponent is 0.
GrowthFit fitGrowth(std::span<const ChartPoint> points);

}  // namespace granary::scale
