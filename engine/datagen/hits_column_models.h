#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/datagen/random.h"
#include "engine/datagen/zipf_distribution.h"

namespace granary::datagen
{

/// A well-mixed 64-bit value of (a, b): seeds the independent random stream of one concern
/// (a column of a chunk, one user, one URL) so that no value depends on generation order.
inline uint64_t mixSeed(uint64_t a, uint64_t b)
{
    Random random(a ^ (b * 0x9E3779B97F4A7C15ULL) ^ 0xD1B54A32D192ED03ULL);
    return random.next();
}

/// Uniform [0, 1) from 53 bits of a hash.
inline double unitFromHash(uint64_t hash)
{
    return static_cast<double>(hash >> 11) * 0x1.0p-53;
}

/// Values with weights (any scale): sample() draws one; pick(u) maps a uniform u in [0, 1) to
/// one, for values that must follow from a hash rather than from a stream.
class WeightedChoice
{
public:
    WeightedChoice() = default;
    WeightedChoice(std::vector<int64_t> values, std::span<const double> weights);

    int64_t pick(double unit) const;
    int64_t sample(Random& random) const { return pick(random.unit()); }
    std::span<const int64_t> values() const { return values_; }

private:
    /// One alias-table slot in one place, so that a draw touches one cache line.
    struct Slot
    {
        double threshold;
        int64_t own;
        int64_t alias;
    };
    std::vector<int64_t> values_;
    std::vector<Slot> slots_;
};

/// A skewed draw of entity indices (users, URLs, phrases) whose distinct count scales with the
/// number of draws: fixed-share heavy hitters (indices 0..heavy-1), a Zipf head, and a uniform
/// tail whose size is solved so that `expected_distinct` of the `draws` indices differ.
class SkewedIndex
{
public:
    struct Shape
    {
        std::vector<double> heavy_shares;  ///< Each heavy hitter's share of draws.
        size_t zipf_size = 0;
        double zipf_exponent = 1.0;
        double zipf_share = 0;  ///< Share of draws that go to the Zipf head.
        double draws = 0;
        double expected_distinct = 0;
    };
    explicit SkewedIndex(const Shape& shape);

    uint64_t sample(Random& random) const;
    uint64_t tailSize() const { return tail_size_; }
    /// First index of the uniform tail.
    uint64_t tailStart() const { return tail_start_; }

    /// Size M of a uniform range from which `draws` draws give `distinct` values on average,
    /// i.e. the solution of M * (1 - exp(-draws / M)) = distinct.
    static double uniformRangeFor(double draws, double distinct);

private:
    std::vector<double> heavy_cumulative_;
    double zipf_share_;
    ZipfDistribution zipf_;
    uint64_t zipf_start_;
    uint64_t tail_start_;
    uint64_t tail_size_;
};

}  // namespace granary::datagen
