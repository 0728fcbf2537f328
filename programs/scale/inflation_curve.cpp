#include "programs/scale/inflation_curve.h"

#include <algorithm>
#include <cmath>

namespace granary::scale
{

double InflationCurve::at(double threads) const
{
    if (threads <= 1 || points.empty())
    {
        return 1;
    }
    if (threads >= points.back().threads)
    {
        return points.back().inflation;
    }
    const auto above =
        std::find_if(points.begin(), points.end(),
                     [threads](const InflationPoint& p) { return p.threads >= threads; });
    const InflationPoint below = above == points.begin() ? InflationPoint{} : *(above - 1);
    const double fraction = (std::log2(threads) - std::log2(below.threads)) /
                            (std::log2(above->threads) - std::log2(below.threads));
    return below.inflation + fraction * (above->inflation - below.inflation);
}

InflationCurve inflationCurveOf(std::span<const InflationRow> rows)
{
    InflationCurve curve;
    for (const InflationRow& row : rows)
    {
        if (row.threads > 1 && hasInflation(row))
        {
            curve.points.push_back({static_cast<double>(row.threads), *row.inflation});
        }
    }
    std::sort(curve.points.begin(), curve.points.end(),
              [](const InflationPoint& a, const InflationPoint& b)
              { return a.threads < b.threads; });
    return curve;
}

}  // namespace granary::scale
