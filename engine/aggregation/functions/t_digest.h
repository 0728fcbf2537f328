#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/functions/quantile_interpolation.h"
#include "engine/aggregation/state_bytes.h"

namespace granary
{

/// Dunning and Ertl's merging t-digest ("Computing extremely accurate quantiles using
/// t-digests", 2019), the state of quantileTDigest(level)(x): the values as centroids (a mean
/// and a weight) over consecutive ranks, with the scale function
///   k(q) = kCompression / (2 pi) * asin(2q - 1)
/// limiting a centroid of several values to a span of 1 in k. Centroids are therefore narrow
/// near the extremes and at most 2 pi / kCompression * sqrt(q (1 - q)) wide in rank near
/// quantile q (pi / kCompression = 0.031 at the median): the rank error at a level stays within
/// the width of the centroids around it, and the minimum and maximum are kept exactly.
/// Values arrive in a buffer after the sorted centroids; a full buffer is sorted and merged in.
class TDigest
{
public:
    /// The compression parameter delta, as in the paper and ClickHouse: at most
    /// kCompression + 2 centroids after a merge (two adjacent centroids span more than 1 of the
    /// kCompression / 2 units of k).
    static constexpr double kCompression = 100;
    /// Centroids and buffered values held at most: room for ~4 buffered values per centroid,
    /// so that sorting and merging runs once per ~400 values; 8 KiB (512 entries allocated).
    static constexpr size_t kMaxEntries = 500;
    /// |rank error| at the median stays under the width of a centroid there.
    static constexpr double kRankErrorBound = std::numbers::pi / kCompression;

    struct Centroid
    {
        double mean;
        uint64_t weight;
    };

    void add(double value)
    {
        addCentroid({value, 1});
        min_ = std::min(min_, value);
        max_ = std::max(max_, value);
    }

    void merge(const TDigest& other)
    {
        if (other.total_weight_ == 0)
        {
            return;
        }
        for (const Centroid& centroid : other.entries_)
        {
            addCentroid(centroid);
        }
        min_ = std::min(min_, other.min_);
        max_ = std::max(max_, other.max_);
    }

    /// The value at rank 1 + level * (count - 1) of the piecewise-linear curve through the
    /// minimum, each centroid's mean at the middle of its ranks and the maximum: with every
    /// centroid a single value, the exact quantile interpolated between neighbouring ranks (as
    /// DuckDB's quantile_cont). NaN when empty. Merges the buffer in.
    double quantile(double level)
    {
        if (total_weight_ == 0)
        {
            return std::numeric_limits<double>::quiet_NaN();
        }
        compress();
        // Positions in units of one value's weight; value i (from 0) is centred at i + 1/2.
        const double total = double(total_weight_);
        const double target = 0.5 + level * (total - 1);
        // The extremes are exact even where a centroid's mean is not: the largest value may
        // sit in an older centroid whose mean sorts before a later, smaller single value.
        if (target <= 0.5)
        {
            return min_;
        }
        if (target >= total - 0.5)
        {
            return max_;
        }
        double previous_position = 0.5;
        double previous_value = min_;
        double weight_before = 0;
        for (const Centroid& centroid : entries_)
        {
            const double position = weight_before + double(centroid.weight) / 2;
            if (target <= position)
            {
                return interpolate(previous_position, previous_value, position, centroid.mean,
                                   target);
            }
            previous_position = position;
            previous_value = centroid.mean;
            weight_before += double(centroid.weight);
        }
        return interpolate(previous_position, previous_value, total - 0.5, max_, target);
    }

    uint64_t count() const { return total_weight_; }
    size_t heapBytes() const { return entries_.capacity() * sizeof(Centroid); }

    /// The minimum, the maximum, the number of entries (32 bits), then each entry's mean and
    /// weight.
    void serialize(std::string& out) const
    {
        appendStateValue(out, min_);
        appendStateValue(out, max_);
        appendStateValue(out, static_cast<uint32_t>(entries_.size()));
        for (const Centroid& centroid : entries_)
        {
            appendStateValue(out, centroid.mean);
            appendStateValue(out, centroid.weight);
        }
    }
    /// Reads a serialized digest, checking its entry count, weights and that every mean lies
    /// within its minimum and maximum.
    static TDigest read(StateReader& reader)
    {
        TDigest digest;
        const double min = reader.read<double>();
        const double max = reader.read<double>();
        const uint32_t entries = reader.read<uint32_t>();
        if (entries > kMaxEntries)
        {
            reader.fail(std::to_string(entries) + " centroids, more than " +
                        std::to_string(kMaxEntries));
        }
        for (uint32_t i = 0; i < entries; ++i)
        {
            const double mean = reader.read<double>();
            const uint64_t weight = reader.read<uint64_t>();
            if (!(mean >= min && mean <= max))
            {
                reader.fail("a centroid's mean outside the minimum and maximum");
            }
            if (weight == 0 || weight > std::numeric_limits<uint64_t>::max() - digest.count())
            {
                reader.fail("a centroid's weight of " + std::to_string(weight));
            }
            digest.addCentroid({mean, weight});
        }
        if (entries > 0)
        {
            digest.min_ = min;
            digest.max_ = max;
        }
        return digest;
    }

private:
    using Entries = std::vector<Centroid, TrackedAllocator<Centroid>>;

    void addCentroid(const Centroid& centroid)
    {
        if (entries_.size() == kMaxEntries)
        {
            compress();
        }
        entries_.push_back(centroid);
        total_weight_ += centroid.weight;
    }

    /// Sorts the buffer into the centroids, then merges neighbours greedily, left to right,
    /// while the merged centroid spans at most 1 in k.
    void compress()
    {
        if (sorted_entries_ == entries_.size())
        {
            return;
        }
        // Ties broken by weight: the order, and so the result, depends only on the entries.
        const auto by_mean = [](const Centroid& a, const Centroid& b)
        { return a.mean < b.mean || (a.mean == b.mean && a.weight < b.weight); };
        const auto sorted_end = entries_.begin() + static_cast<ptrdiff_t>(sorted_entries_);
        std::sort(sorted_end, entries_.end(), by_mean);
        std::inplace_merge(entries_.begin(), sorted_end, entries_.end(), by_mean);

        const double total = double(total_weight_);
        size_t merged = 0;
        Centroid current = entries_[0];
        double weight_before = 0;
        double rank_limit = rankLimit(0);
        for (size_t i = 1; i < entries_.size(); ++i)
        {
            const Centroid& next = entries_[i];
            const double merged_weight = double(current.weight) + double(next.weight);
            if ((weight_before + merged_weight) / total <= rank_limit)
            {
                // A weighted mean that stays finite next to infinite values, clamped so that
                // rounding cannot move it past either mean: centroids of equal values (a
                // frequent value) must keep that value exactly.
                const double mean = current.mean * (double(current.weight) / merged_weight) +
                                    next.mean * (double(next.weight) / merged_weight);
                current.mean = std::clamp(mean, current.mean, next.mean);
                current.weight += next.weight;
                continue;
            }
            entries_[merged++] = current;
            weight_before += double(current.weight);
            rank_limit = rankLimit(weight_before / total);
            current = next;
        }
        entries_[merged++] = current;
        entries_.resize(merged);
        sorted_entries_ = merged;
    }

    /// The largest rank (as a fraction) a centroid starting at rank fraction `q` may reach:
    /// k^-1(k(q) + 1).
    static double rankLimit(double q)
    {
        const double k = kScale * std::asin(2 * q - 1) + 1;
        if (k >= kScale * std::numbers::pi / 2)
        {
            return 1;
        }
        return (std::sin(k / kScale) + 1) / 2;
    }
    /// The scale function's factor, kCompression / (2 pi).
    static constexpr double kScale = kCompression / (2 * std::numbers::pi);

    static double interpolate(double position_a, double value_a, double position_b, double value_b,
                              double target)
    {
        if (position_b <= position_a)
        {
            return value_b;
        }
        return interpolateQuantile(value_a, value_b,
                                   (target - position_a) / (position_b - position_a));
    }

    /// The sorted centroids, then the buffer.
    Entries entries_;
    size_t sorted_entries_ = 0;
    uint64_t total_weight_ = 0;
    double min_ = std::numeric_limits<double>::infinity();
    double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace granary
