#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "alloc/tracked_allocator.h"

namespace granary
{

/// A HyperLogLog sketch (Flajolet, Fusy, Gandouet, Meunier 2007) over 64-bit hashes: 2^p
/// registers, each the largest rank (leading zeros + 1) seen among the hashes whose top p bits
/// pick it. The count is Ertl's improved estimator ("New cardinality estimation algorithms for
/// HyperLogLog sketches", 2017), nearly unbiased from a handful of values to 2^64 without
/// empirical bias tables: relative standard error 1.04 / sqrt(2^p).
///
/// Registers are packed 6 bits each, four in three little-endian bytes; the packed bytes are
/// also the serialized form.
class HyperLogLog
{
public:
    /// Bits per register: ranks go up to 65 - p, below 64 for every p >= 2.
    static constexpr size_t kRegisterBits = 6;
    /// Registers per group of kGroupBytes bytes.
    static constexpr size_t kRegistersPerGroup = 4;
    static constexpr size_t kGroupBytes = kRegistersPerGroup * kRegisterBits / 8;
    static constexpr uint32_t kRegisterMask = (1u << kRegisterBits) - 1;

    explicit HyperLogLog(uint8_t precision)
        : precision_(precision), packed_(packedSize(precision), 0)
    {
    }

    static constexpr size_t packedSize(uint8_t precision)
    {
        return (size_t{1} << precision) / kRegistersPerGroup * kGroupBytes;
    }

    size_t registerCount() const { return size_t{1} << precision_; }
    /// The rank of a hash whose bits below the register index are all zero.
    static uint8_t maxRank(uint8_t precision) { return static_cast<uint8_t>(65 - precision); }
    std::string_view packed() const
    {
        return {reinterpret_cast<const char*>(packed_.data()), packed_.size()};
    }

    void insertHash(uint64_t hash)
    {
        const size_t index = hash >> (64 - precision_);
        // A sentinel bit below the remaining 64 - p bits caps the rank at maxRank.
        const uint64_t remaining = (hash << precision_) | (uint64_t{1} << (precision_ - 1));
        const uint8_t rank = static_cast<uint8_t>(std::countl_zero(remaining) + 1);
        if (rank > registerAt(index))
        {
            setRegister(index, rank);
        }
    }

    uint8_t registerAt(size_t index) const
    {
        const uint32_t group = loadGroup(packed_.data() + index / kRegistersPerGroup * kGroupBytes);
        return (group >> (index % kRegistersPerGroup * kRegisterBits)) & kRegisterMask;
    }

    /// True when `packed` are the registers of a sketch of `precision` (size, and no register
    /// above its maxRank).
    static bool isValidPacked(std::string_view packed, uint8_t precision)
    {
        if (packed.size() != packedSize(precision))
        {
            return false;
        }
        const auto* bytes = reinterpret_cast<const uint8_t*>(packed.data());
        for (size_t offset = 0; offset < packed.size(); offset += kGroupBytes)
        {
            const uint32_t group = loadGroup(bytes + offset);
            for (size_t lane = 0; lane < kRegistersPerGroup; ++lane)
            {
                if (((group >> (lane * kRegisterBits)) & kRegisterMask) > maxRank(precision))
                {
                    return false;
                }
            }
        }
        return true;
    }

    /// Register-wise maximum with `packed`, the valid registers of a sketch of the same
    /// precision.
    void mergePacked(std::string_view packed)
    {
        const auto* source = reinterpret_cast<const uint8_t*>(packed.data());
        for (size_t offset = 0; offset < packed_.size(); offset += kGroupBytes)
        {
            const uint32_t mine = loadGroup(packed_.data() + offset);
            const uint32_t theirs = loadGroup(source + offset);
            uint32_t merged = 0;
            for (size_t lane = 0; lane < kRegistersPerGroup; ++lane)
            {
                const size_t shift = lane * kRegisterBits;
                merged |=
                    std::max((mine >> shift) & kRegisterMask, (theirs >> shift) & kRegisterMask)
                    << shift;
            }
            storeGroup(packed_.data() + offset, merged);
        }
    }
    void merge(const HyperLogLog& other) { mergePacked(other.packed()); }

    /// Ertl's improved estimator over the histogram of register values.
    double estimate() const
    {
        const size_t q = 64 - precision_;
        std::vector<double> histogram(q + 2, 0.0);
        for (size_t index = 0; index < registerCount(); ++index)
        {
            histogram[registerAt(index)] += 1;
        }
        const double m = static_cast<double>(registerCount());
        double z = m * tau(1 - histogram[q + 1] / m);
        for (size_t k = q; k >= 1; --k)
        {
            z = 0.5 * (z + histogram[k]);
        }
        z += m * sigma(histogram[0] / m);
        return kAlphaInfinity * m * m / z;
    }

private:
    /// The estimator's bias-correcting constant for m -> infinity: 1 / (2 ln 2).
    static constexpr double kAlphaInfinity = 0.7213475204444817;

    static uint32_t loadGroup(const uint8_t* bytes)
    {
        return bytes[0] | (uint32_t{bytes[1]} << 8) | (uint32_t{bytes[2]} << 16);
    }
    static void storeGroup(uint8_t* bytes, uint32_t group)
    {
        bytes[0] = static_cast<uint8_t>(group);
        bytes[1] = static_cast<uint8_t>(group >> 8);
        bytes[2] = static_cast<uint8_t>(group >> 16);
    }
    void setRegister(size_t index, uint8_t value)
    {
        uint8_t* bytes = packed_.data() + index / kRegistersPerGroup * kGroupBytes;
        const size_t shift = index % kRegistersPerGroup * kRegisterBits;
        storeGroup(bytes,
                   (loadGroup(bytes) & ~(kRegisterMask << shift)) | (uint32_t{value} << shift));
    }

    /// sigma(x) = x + sum over k >= 1 of x^(2^k) 2^(k-1): the share of empty registers' term,
    /// summed until it stops changing (infinite for x = 1, an empty sketch).
    static double sigma(double x)
    {
        if (x == 1)
        {
            return INFINITY;
        }
        double weight = 1;
        double sum = x;
        double previous;
        do
        {
            x *= x;
            previous = sum;
            sum += x * weight;
            weight += weight;
        } while (sum != previous);
        return sum;
    }
    /// tau(x) = (1 - x - sum over k >= 1 of (1 - x^(2^-k))^2 2^-k) / 3: the term of registers
    /// at the largest rank.
    static double tau(double x)
    {
        if (x == 0 || x == 1)
        {
            return 0;
        }
        double weight = 1;
        double sum = 1 - x;
        double previous;
        do
        {
            x = std::sqrt(x);
            previous = sum;
            weight *= 0.5;
            sum -= (1 - x) * (1 - x) * weight;
        } while (sum != previous);
        return sum / 3;
    }

    uint8_t precision_;
    std::vector<uint8_t, TrackedAllocator<uint8_t>> packed_;
};

}  // namespace granary
