#include "programs/scale/chart_axis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace granary::scale
{

namespace
{

/// 1, 2 or 5 times a power of ten, at least `raw`.
double niceStep(double raw)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double multiple : {1.0, 2.0, 5.0, 10.0})
    {
        if (multiple * magnitude >= raw * (1 - 1e-9))
        {
            return multiple * magnitude;
        }
    }
    return 10 * magnitude;
}

double logBase(AxisScale scale)
{
    return scale == AxisScale::kLog2 ? 2.0 : 10.0;
}

}  // namespace

ChartAxis::ChartAxis(AxisScale scale, double min, double max) : scale_(scale)
{
    if (scale_ == AxisScale::kLinear)
    {
        if (!(max > min))
        {
            const double pad = min == 0 ? 1 : std::abs(min) * 0.5;
            min -= pad;
            max += pad;
        }
        linear_step_ = niceStep((max - min) / 5);
        min_ = std::floor(min / linear_step_) * linear_step_;
        max_ = std::ceil(max / linear_step_) * linear_step_;
        return;
    }
    const double base = logBase(scale_);
    if (!(min > 0))
    {
        min = max > 0 ? max / base : 1;
    }
    if (!(max > min))
    {
        max = min * base;
    }
    const double low = std::floor(std::log(min) / std::log(base) + 1e-9);
    const double high = std::ceil(std::log(max) / std::log(base) - 1e-9);
    min_ = std::pow(base, low);
    max_ = std::pow(base, std::max(high, low + 1));
}

bool ChartAxis::accepts(double value) const
{
    return std::isfinite(value) && (scale_ == AxisScale::kLinear || value > 0);
}

double ChartAxis::transform(double value) const
{
    return scale_ == AxisScale::kLinear ? value : std::log(value);
}

double ChartAxis::fraction(double value) const
{
    return (transform(value) - transform(min_)) / (transform(max_) - transform(min_));
}

std::vector<double> ChartAxis::ticks() const
{
    std::vector<double> ticks;
    if (scale_ == AxisScale::kLinear)
    {
        for (double v = min_; v <= max_ + linear_step_ * 1e-6; v += linear_step_)
        {
            ticks.push_back(std::abs(v) < linear_step_ * 1e-9 ? 0 : v);
        }
        return ticks;
    }
    const double base = logBase(scale_);
    const double decades = std::log(max_ / min_) / std::log(base);
    // Few decades of a log10 axis leave room for 2x and 5x ticks; many log2 steps are thinned.
    const bool with_intermediate = scale_ == AxisScale::kLog10 && decades <= 2.5;
    const int every = scale_ == AxisScale::kLog2 && decades > 12 ? 2 : 1;
    int index = 0;
    for (double v = min_; v <= max_ * (1 + 1e-9); v *= base, ++index)
    {
        if (index % every == 0)
        {
            ticks.push_back(v);
        }
        if (with_intermediate)
        {
            for (double multiple : {2.0, 5.0})
            {
                if (v * multiple < max_ * (1 - 1e-9))
                {
                    ticks.push_back(v * multiple);
                }
            }
        }
    }
    return ticks;
}

std::string ChartAxis::formatTick(double value)
{
    // Thread counts and speedups up to millions read better in full than as 2.05e+03.
    if (value >= 1 && value < 1e7 && value == std::floor(value))
    {
        return fmt::format("{:.0f}", value);
    }
    return fmt::format("{:.3g}", value);
}

}  // namespace granary::scale
