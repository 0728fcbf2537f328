#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/functions/quantile_interpolation.h"
#include "engine/aggregation/state_bytes.h"

namespace granary
{

/// A uniform random sample without replacement of at most kCapacity of the values seen (Vitter's
/// Algorithm R), the state of quantile(level)(x). Its quantiles are those of the sample, so
/// their rank error has standard deviation sqrt(level * (1 - level) / kCapacity), at most
/// 0.5 / sqrt(kCapacity) = 0.0055; up to kCapacity values the sample is all of them and the
/// quantile exact. Every sample starts from the same seed and stirs the values it draws for
/// into its generator: a result depends only on the values, their order and how they were split
/// into partial states, never on the run, and partials of different values draw independently.
class ReservoirSample
{
public:
    /// Values kept at most (ClickHouse's quantile keeps as many): 64 KiB of doubles.
    static constexpr size_t kCapacity = 8192;
    /// |rank error| stays under this with overwhelming probability: four standard deviations
    /// at the median (4 * 0.5 / sqrt(kCapacity) = 0.0221).
    static inline const double kRankErrorBound = 2.0 / std::sqrt(double(kCapacity));

    void add(double value)
    {
        ++seen_;
        if (samples_.size() < kCapacity)
        {
            samples_.push_back(value);
            return;
        }
        // The seen_-th value replaces a random one with probability kCapacity / seen_.
        const uint64_t slot = uniformBelow(seen_);
        // Partial samples of different values then stop drawing the same slots.
        random_state_ += std::bit_cast<uint64_t>(value);
        if (slot < kCapacity)
        {
            samples_[slot] = value;
        }
    }

    /// Leaves a uniform sample of the union of both inputs: a sample that holds all of its
    /// input is streamed into the other; two partial samples are drawn from as a uniform
    /// sample of kCapacity of the union would be: the number taken from each side is
    /// hypergeometric (drawn one value at a time, in proportion to the values each side has
    /// left), and each side's share is a uniform subset of its sample.
    void merge(const ReservoirSample& other)
    {
        if (other.holdsAllItsValues())
        {
            for (const double value : other.samples_)
            {
                add(value);
            }
        }
        else if (holdsAllItsValues())
        {
            const Samples own = std::move(samples_);
            samples_ = other.samples_;
            seen_ = other.seen_;
            for (const double value : own)
            {
                add(value);
            }
        }
        else
        {
            uint64_t own_left = seen_;
            uint64_t other_left = other.seen_;
            size_t take_own = 0;
            for (size_t i = 0; i < kCapacity; ++i)
            {
                if (uniformBelow(own_left + other_left) < own_left)
                {
                    ++take_own;
                    --own_left;
                }
                else
                {
                    --other_left;
                }
            }
            size_t kept = 0;
            selectUniformly(samples_, take_own, [&](double value) { samples_[kept++] = value; });
            samples_.resize(kept);
            selectUniformly(other.samples_, kCapacity - take_own,
                            [&](double value) { samples_.push_back(value); });
            seen_ += other.seen_;
        }
    }

    /// The sample's quantile at `level`, interpolated between the two nearest ranks (as
    /// DuckDB's quantile_cont: position level * (size - 1)); NaN when empty. Reorders the
    /// sample, which leaves it as uniform as it was.
    double quantile(double level)
    {
        if (samples_.empty())
        {
            return std::numeric_limits<double>::quiet_NaN();
        }
        const double position = level * double(samples_.size() - 1);
        const size_t lower = static_cast<size_t>(position);
        std::nth_element(samples_.begin(), samples_.begin() + lower, samples_.end());
        const double low = samples_[lower];
        if (lower + 1 == samples_.size())
        {
            return low;
        }
        const double high = *std::min_element(samples_.begin() + lower + 1, samples_.end());
        return interpolateQuantile(low, high, position - double(lower));
    }

    uint64_t count() const { return seen_; }
    size_t heapBytes() const { return samples_.capacity() * sizeof(double); }

    /// The count of values seen, the sample's size (32 bits), then the sample.
    void serialize(std::string& out) const
    {
        appendStateValue(out, seen_);
        appendStateValue(out, static_cast<uint32_t>(samples_.size()));
        for (const double value : samples_)
        {
            appendStateValue(out, value);
        }
    }
    /// Reads a serialized sample, checking that its size fits its count and that it holds
    /// no NaN (never added).
    static ReservoirSample read(StateReader& reader)
    {
        ReservoirSample sample;
        sample.seen_ = reader.read<uint64_t>();
        const uint32_t size = reader.read<uint32_t>();
        if (size != std::min<uint64_t>(sample.seen_, kCapacity))
        {
            reader.fail("a sample of " + std::to_string(size) + " values for " +
                        std::to_string(sample.seen_) + " seen");
        }
        sample.samples_.reserve(size);
        for (uint32_t i = 0; i < size; ++i)
        {
            const double value = reader.read<double>();
            if (std::isnan(value))
            {
                reader.fail("NaN in the sample");
            }
            sample.samples_.push_back(value);
        }
        return sample;
    }

private:
    using Samples = std::vector<double, TrackedAllocator<double>>;
    /// Any fixed seed makes results reproducible; these are pi's first fractional hex digits.
    static constexpr uint64_t kSeed = 0x243F6A8885A308D3ULL;

    bool holdsAllItsValues() const { return seen_ <= kCapacity; }

    /// SplitMix64 (Steele, Lea and Flood): a 64-bit state, passes BigCrush.
    uint64_t nextRandom()
    {
        random_state_ += 0x9E3779B97F4A7C15ULL;
        uint64_t z = random_state_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, bound) by Lemire's multiply-shift; the bias, bound / 2^64, is negligible.
    uint64_t uniformBelow(uint64_t bound)
    {
        return static_cast<uint64_t>((static_cast<unsigned __int128>(nextRandom()) * bound) >> 64);
    }
    /// Passes `count` of `values`, each subset equally likely, to `keep` in their order (Knuth's
    /// selection sampling, Algorithm S); `keep` may overwrite values already passed over.
    template <typename Keep>
    void selectUniformly(const Samples& values, size_t count, Keep&& keep)
    {
        const size_t size = values.size();
        for (size_t i = 0; i < size && count > 0; ++i)
        {
            if (uniformBelow(size - i) < count)
            {
                keep(values[i]);
                --count;
            }
        }
    }

    Samples samples_;
    uint64_t seen_ = 0;
    uint64_t random_state_ = kSeed;
};

}  // namespace granary
