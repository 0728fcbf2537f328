#include "programs/scale/growth_fit.h"

#include <cmath>

namespace granary::scale
{

GrowthFit fitGrowth(std::span<const ChartPoint> points)
{
    double n = 0;
    double sum_x = 0;
    double sum_y = 0;
    double sum_xx = 0;
    double sum_xy = 0;
    for (const ChartPoint& p : points)
    {
        if (!(p.x > 0) || !(p.y > 0))
        {
            continue;
        }
        const double lx = std::log(p.x);
        const double ly = std::log(p.y);
        n += 1;
        sum_x += lx;
        sum_y += ly;
        sum_xx += lx * lx;
        sum_xy += lx * ly;
    }
    GrowthFit fit;
    fit.samples = static_cast<size_t>(n);
    const double denominator = n * sum_xx - sum_x * sum_x;
    if (n < 2 || denominator <= 1e-12 * n * sum_xx)
    {
        return fit;
    }
    fit.exponent = (n * sum_xy - sum_x * sum_y) / denominator;
    fit.coefficient = std::exp((sum_y - fit.exponent * sum_x) / n);
    return fit;
}

}  // namespace granary::scale
