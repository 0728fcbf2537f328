#pragma once

#include <cstddef>
#include <vector>

#include "engine/datagen/random.h"

namespace granary::datagen
{

/// Ranks 0..size-1 drawn with probability proportional to 1 / (rank + 1)^exponent: a few values
/// are very popular and a long tail is rare, as with web sites, search phrases or users.
class ZipfDistribution
{
public:
    ZipfDistribution(size_t size, double exponent);

    size_t sample(Random& random) const;

private:
    /// cumulative_[i]: probability of a rank <= i.
    std::vector<double> cumulative_;
};

}  // namespace granary::datagen
