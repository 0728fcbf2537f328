#pragma once

#include <span>
#include <vector>

#include "programs/scale/inflation_row.h"

namespace granary::scale
{

/// A measured inflation: instructions at `threads` / at 1 thread.
struct InflationPoint
{
    double threads = 1;
    double inflation = 1;
};

/// One query's instruction inflation I(p) at any thread count p, from the counts
/// tools/work_inflation.sh measured: 1 at p <= 1; linear in log2(p) between measured counts
/// (and between 1 thread and the first count above it); past the largest measured count, held
/// at its value, since nothing says how it grows further.
struct InflationCurve
{
    std::vector<InflationPoint> points;  ///< Above 1 thread, by thread count.

    double at(double threads) const;
};

/// The curve of one query's rows: those above 1 thread with a usable inflation (hasInflation).
InflationCurve inflationCurveOf(std::span<const InflationRow> rows);

}  // namespace granary::scale
