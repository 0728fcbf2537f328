#pragma once

#include <cstdint>

namespace granary::datagen
{

/// SplitMix64: tiny, fast and fully determined by its seed on every platform (unlike the
/// standard distributions), which generated data sets must be.
class Random
{
public:
    explicit Random(uint64_t seed) : state_(seed) {}

    uint64_t next()
    {
        state_ += kIncrement;
        uint64_t mixed = state_;
        mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9ULL;
        mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBULL;
        return mixed ^ (mixed >> 31);
    }

    /// Uniform in [0, bound); bound > 0. Multiply-shift: no division, bias below 2^-32.
    uint64_t below(uint64_t bound)
    {
        return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
    }

    /// Uniform in [low, high].
    uint64_t between(uint64_t low, uint64_t high) { return low + below(high - low + 1); }

    /// Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    bool chance(double probability) { return unit() < probability; }

private:
    /// The golden-ratio increment of SplitMix64.
    static constexpr uint64_t kIncrement = 0x9E3779B97F4A7C15ULL;

    uint64_t state_;
};

/// A Random whose small draws (bounds up to 2^16, chances to 1/65536) take 16 bits each, four
/// per 64-bit draw: a generated URL or title makes dozens of them.
class SmallDraws
{
public:
    explicit SmallDraws(uint64_t seed) : random_(seed) {}

    /// Uniform in [0, bound); bound > 0.
    uint64_t below(uint64_t bound)
    {
        return bound <= kSmallBound ? (next16() * bound) >> 16 : random_.below(bound);
    }
    bool chance(double probability)
    {
        return static_cast<double>(next16()) < probability * 0x1.0p16;
    }
    /// Uniform in [0, 1), from a whole draw.
    double unit() { return random_.unit(); }

private:
    static constexpr uint64_t kSmallBound = 1 << 16;

    uint64_t next16()
    {
        if (left_ == 0)
        {
            bits_ = random_.next();
            left_ = 4;
        }
        --left_;
        const uint64_t value = bits_ & 0xFFFF;
        bits_ >>= 16;
        return value;
    }

    Random random_;
    uint64_t bits_ = 0;
    int left_ = 0;
};

}  // namespace granary::datagen
