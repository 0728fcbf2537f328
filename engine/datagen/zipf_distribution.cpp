#include "engine/datagen/zipf_distribution.h"

#include <algorithm>
#include <cmath>

namespace granary::datagen
{

ZipfDistribution::ZipfDistribution(size_t size, double exponent) : cumulative_(size)
{
    double total = 0;
    for (size_t rank = 0; rank < size; ++rank)
    {
        total += 1.0 / std::pow(static_cast<double>(rank + 1), exponent);
        cumulative_[rank] = total;
    }
    for (double& probability : cumulative_)
    {
        probability /= total;
    }
}

size_t ZipfDistribution::sample(Random& random) const
{
    const auto rank = std::upper_bound(cumulative_.begin(), cumulative_.end(), random.unit());
    return std::min(static_cast<size_t>(rank - cumulative_.begin()), cumulative_.size() - 1);
}

}  // namespace granary::datagen
