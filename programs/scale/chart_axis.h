#pragma once

#include <string>
#include <vector>

namespace granary::scale
{

enum class AxisScale
{
    kLinear,
    kLog2,   ///< Thread counts: ticks at powers of two.
    kLog10,  ///< Times and speedups spanning decades.
};

/// Maps data values onto [0, 1] along one axis and chooses its ticks. The range is widened to
/// round bounds (powers of the base on log axes, multiples of the tick step on linear ones).
class ChartAxis
{
public:
    /// Log axes need min > 0; an empty or degenerate range is widened around its value.
    ChartAxis(AxisScale scale, double min, double max);

    double fraction(double value) const;
    bool accepts(double value) const;  ///< False for values a log axis cannot show (<= 0).
    std::vector<double> ticks() const;
    double min() const { return min_; }
    double max() const { return max_; }

    /// Short tick label: 1, 2.5, 0.001, 2048, 1e-05.
    static std::string formatTick(double value);

private:
    double transform(double value) const;

    AxisScale scale_;
    double min_;
    double max_;
    double linear_step_ = 1;
};

}  // namespace granary::scale
