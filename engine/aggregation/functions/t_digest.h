#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/functions/quantile_interpolation.h"
#include "engine/aggregation/functions/radix_sort.h"
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
/// Values wait in a buffer; a full one is radix-sorted and folded into the centroids in one
/// pass.
class TDigest
{
public:
    struct Centroid
    {
        double mean;
        uint64_t weight;
    };

    /// The compression parameter delta, as in the paper and ClickHouse.
    static constexpr double kCompression = 100;
    /// Centroids after a fold, at most: each two neighbours span more than 1 of the
    /// kCompression / 2 units of k, and the two extremes may stand alone.
    static constexpr size_t kMaxCentroids = size_t(kCompression) + 2;
    /// Values buffered between folds: a fold's fixed costs (the scale function per centroid,
    /// the radix histograms) then come to a few per cent of the values' own.
    static constexpr size_t kBufferValues = 2048;
    /// Heap bytes of a digest, at most (17.6 KiB).
    static constexpr size_t kMaxHeapBytes =
        kMaxCentroids * sizeof(Centroid) + kBufferValues * sizeof(uint64_t);
    /// |rank error| at the median stays under the width of a centroid there.
    static constexpr double kRankErrorBound = std::numbers::pi / kCompression;

    void add(double value) { addKey(orderedBits(value)); }

    void merge(const TDigest& other)
    {
        for (const uint64_t key : other.buffer_)
        {
            addKey(key);
        }
        if (other.centroids_.empty())
        {
            return;
        }
        compress();
        Entries both;
        both.reserve(centroids_.size() + other.centroids_.size());
        std::merge(centroids_.begin(), centroids_.end(), other.centroids_.begin(),
                   other.centroids_.end(), std::back_inserter(both), byMean);
        total_weight_ += other.total_weight_ - other.buffer_.size();
        fold(both.data(), both.size());
        min_ = std::min(min_, other.min_);
        max_ = std::max(max_, other.max_);
    }

    /// The value at rank 1 + level * (count - 1) of the piecewise-linear curve through the
    /// minimum, each centroid's mean at the middle of its ranks and the maximum: with every
    /// centroid a single value, the exact quantile interpolated between neighbouring ranks (as
    /// DuckDB's quantile_cont). NaN when empty. Folds the buffer in.
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
        for (const Centroid& centroid : centroids_)
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
    size_t heapBytes() const
    {
        return centroids_.capacity() * sizeof(Centroid) + buffer_.capacity() * sizeof(uint64_t);
    }

    /// The minimum, the maximum, the number of centroids (32 bits), then each one's mean and
    /// weight, the buffer folded in first: reading the bytes back gives the same centroids (a
    /// fold of folded centroids keeps them), so a state round-trips byte for byte.
    void serialize(std::string& out) const
    {
        TDigest folded = *this;
        folded.compress();
        appendStateValue(out, folded.min_);
        appendStateValue(out, folded.max_);
        appendStateValue(out, static_cast<uint32_t>(folded.centroids_.size()));
        for (const Centroid& centroid : folded.centroids_)
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
        if (entries > kMaxCentroids + kBufferValues)
        {
            reader.fail(std::to_string(entries) + " centroids, more than " +
                        std::to_string(kMaxCentroids + kBufferValues));
        }
        Entries read;
        read.reserve(entries);
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
            read.push_back({mean, weight});
            digest.total_weight_ += weight;
        }
        if (entries > 0)
        {
            std::sort(read.begin(), read.end(), byMean);
            digest.fold(read.data(), read.size());
            digest.min_ = min;
            digest.max_ = max;
        }
        return digest;
    }

private:
    using Entries = std::vector<Centroid, TrackedAllocator<Centroid>>;

    /// A value (as orderedBits) into the buffer, which is folded in first when full.
    void addKey(uint64_t key)
    {
        if (buffer_.size() == kBufferValues)
        {
            compress();
        }
        buffer_.push_back(key);
        ++total_weight_;
    }

    /// Centroid order: by mean, ties by weight, so that the order (and the fold) depends only
    /// on the centroids.
    static bool byMean(const Centroid& a, const Centroid& b)
    {
        return a.mean < b.mean || (a.mean == b.mean && a.weight < b.weight);
    }

    /// Folds centroids arriving in ascending order into as few as the scale function allows:
    /// each takes its successors while it spans at most 1 in k. A centroid's mean is the
    /// weighted mean of its members, clamped to their range so that rounding never moves it
    /// past them (centroids of one frequent value keep that value exactly; near the largest
    /// doubles, where the weighted sum overflows, it falls to its last member).
    class Folder
    {
    public:
        Folder(Entries& out, double total, const Centroid& first) : out_(out), total_(total)
        {
            open(first);
        }
        void push(const Centroid& next)
        {
            const uint64_t merged_weight = group_.weight + next.weight;
            if (weight_before_ + double(merged_weight) <= weight_limit_)
            {
                group_.weight = merged_weight;
                weighted_sum_ += next.mean * double(next.weight);
                last_mean_ = next.mean;
                return;
            }
            close();
            open(next);
        }
        /// `count` values equal to `value`: as many as fit join the open centroid, the rest
        /// open new ones, as pushing them one at a time would, in one step per centroid.
        void pushValues(double value, uint64_t count)
        {
            while (count > 0)
            {
                const double room =
                    std::floor(weight_limit_ - weight_before_ - double(group_.weight));
                const uint64_t taken = room < 1 ? 0 : std::min(count, uint64_t(room));
                if (taken > 0)
                {
                    group_.weight += taken;
                    weighted_sum_ += value * double(taken);
                    last_mean_ = value;
                    count -= taken;
                }
                if (count > 0)
                {
                    close();
                    open({value, 1});
                    --count;
                }
            }
        }
        void finish() { close(); }

    private:
        void open(const Centroid& first)
        {
            group_ = first;
            weighted_sum_ = first.mean * double(first.weight);
            last_mean_ = first.mean;
            weight_limit_ = rankLimit(weight_before_ / total_) * total_;
        }
        void close()
        {
            const double mean = weighted_sum_ / double(group_.weight);
            out_.push_back({std::clamp(mean, group_.mean, last_mean_), group_.weight});
            weight_before_ += double(group_.weight);
        }

        Entries& out_;
        double total_;
        double weight_before_ = 0;
        /// The open centroid: its first member's mean, its weight so far.
        Centroid group_{};
        double weighted_sum_ = 0;
        double last_mean_ = 0;
        double weight_limit_ = 0;
    };

    /// Replaces the centroids by `sorted` (ascending, total_weight_ in all) folded.
    void fold(const Centroid* sorted, size_t count)
    {
        Entries folded;
        folded.reserve(std::min(kMaxCentroids, count));
        Folder folder(folded, double(total_weight_), sorted[0]);
        for (size_t i = 1; i < count; ++i)
        {
            folder.push(sorted[i]);
        }
        folder.finish();
        centroids_ = std::move(folded);
    }

    /// Sorts the buffer and folds it into the centroids, merging the two sorted runs on the
    /// way (a value before a centroid of the same mean: ascending weights, as elsewhere).
    void compress()
    {
        const size_t values = buffer_.size();
        if (values == 0)
        {
            return;
        }
        std::array<uint64_t, kBufferValues> scratch;
        const uint64_t* sorted = radixSort(buffer_.data(), scratch.data(), values);
        min_ = std::min(min_, fromOrderedBits(sorted[0]));
        max_ = std::max(max_, fromOrderedBits(sorted[values - 1]));

        Entries folded;
        folded.reserve(std::min(kMaxCentroids, centroids_.size() + values));
        // Equal values (frequent in real columns) go to the folder as one run.
        const auto run_end = [&](size_t from)
        {
            size_t to = from + 1;
            while (to < values && sorted[to] == sorted[from])
            {
                ++to;
            }
            return to;
        };
        size_t next_centroid = 0;
        size_t next_value = 0;
        const double lowest = fromOrderedBits(sorted[0]);
        const bool centroid_first = !centroids_.empty() && centroids_[0].mean < lowest;
        Folder folder(folded, double(total_weight_),
                      centroid_first ? centroids_[next_centroid++] : Centroid{lowest, 1});
        if (!centroid_first)
        {
            next_value = run_end(0);
            folder.pushValues(lowest, next_value - 1);
        }
        while (next_value < values)
        {
            const size_t end = run_end(next_value);
            const double value = fromOrderedBits(sorted[next_value]);
            while (next_centroid < centroids_.size() && centroids_[next_centroid].mean < value)
            {
                folder.push(centroids_[next_centroid++]);
            }
            folder.pushValues(value, end - next_value);
            next_value = end;
        }
        while (next_centroid < centroids_.size())
        {
            folder.push(centroids_[next_centroid++]);
        }
        folder.finish();
        centroids_ = std::move(folded);
        buffer_.clear();
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

    /// Sorted, folded centroids; their minimum and maximum are min_ and max_.
    Entries centroids_;
    /// Values not yet folded in, as orderedBits.
    std::vector<uint64_t, TrackedAllocator<uint64_t>> buffer_;
    /// Every value's weight: the centroids' and the buffer's.
    uint64_t total_weight_ = 0;
    double min_ = std::numeric_limits<double>::infinity();
    double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace granary
