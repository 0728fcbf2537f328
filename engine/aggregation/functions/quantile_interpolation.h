#pragma once

#include <algorithm>

namespace granary
{

/// The value `fraction` (in [0, 1]) of the way from `low` to `high` (low <= high), the
/// interpolation of the approximate quantiles. Written as a weighted sum and exact at both ends
/// so that an infinite end gives that infinity, not inf - inf = NaN; clamped so that rounding
/// never leaves [low, high].
inline double interpolateQuantile(double low, double high, double fraction)
{
    if (fraction <= 0 || low == high)
    {
        return low;
    }
    if (fraction >= 1)
    {
        return high;
    }
    return std::clamp(low * (1 - fraction) + high * fraction, low, high);
}

}  // namespace granary
