#pragma once

#include <cmath>
#include <cstddef>

namespace granary::scale
{

/// The geometric mean of positive values added one by one (ratios: speedups, inflations),
/// summed as logarithms so that long products neither overflow nor underflow. 0 when empty.
class GeometricMean
{
public:
    void add(double value)
    {
        log_sum_ += std::log(value);
        ++count_;
    }
    size_t count() const { return count_; }
    double value() const
    {
        return count_ > 0 ? std::exp(log_sum_ / static_cast<double>(count_)) : 0;
    }

private:
    double log_sum_ = 0;
    size_t count_ = 0;
};

}  // namespace granary::scale
