#include "engine/aggregation/bucket_cardinality.h"

#include <algorithm>
#include <cmath>

namespace granary
{

size_t BucketCardinality::estimate(size_t bucket,
                                   std::span<const BucketCardinality* const> sketches)
{
    // HyperLogLog's bias correction for 64 registers (Flajolet et al., 2007).
    constexpr double kAlpha = 0.709;
    // Below this many distinct values the raw estimate is biased; linear counting of the empty
    // registers is exact enough there.
    constexpr double kSmallRangeFactor = 2.5;
    constexpr double registers = kRegisters;

    double inverse_sum = 0;
    size_t empty = 0;
    for (size_t index = 0; index < kRegisters; ++index)
    {
        uint8_t rank = 0;
        for (const BucketCardinality* sketch : sketches)
        {
            rank = std::max(rank, sketch->registers_[bucket][index]);
        }
        inverse_sum += std::ldexp(1.0, -rank);
        empty += rank == 0 ? 1 : 0;
    }
    double estimate = kAlpha * registers * registers / inverse_sum;
    if (estimate <= kSmallRangeFactor * registers && empty > 0)
    {
        estimate = registers * std::log(registers / static_cast<double>(empty));
    }
    return static_cast<size_t>(std::llround(estimate));
}

}  // namespace granary
