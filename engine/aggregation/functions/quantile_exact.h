#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/state_bytes.h"

namespace granary
{

/// Every value, the state of quantileExact(level)(x): its quantile is the element at position
/// floor(level * n) of the n values sorted (ClickHouse's definition; the last for level 1),
/// found by nth_element when the result is built. For an even n, quantileExact(0.5) is thus the
/// upper of the two middle values, where DuckDB's quantile_disc takes position
/// max(ceil(level * n), 1) - 1 (the lower one) and quantile_cont interpolates at position
/// level * (n - 1).
template <typename T>
class ExactQuantile
{
public:
    void add(T value) { values_.push_back(value); }
    void merge(const ExactQuantile& other)
    {
        values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    }

    /// The element at positionOf(level, n); NaN for no floats, 0 for no integers. May reorder
    /// the values.
    T quantile(double level)
    {
        if (values_.empty())
        {
            if constexpr (std::is_floating_point_v<T>)
            {
                return std::numeric_limits<T>::quiet_NaN();
            }
            return T{};
        }
        const size_t position = positionOf(level, values_.size());
        if constexpr (std::is_integral_v<T>)
        {
            T low = values_[0];
            T high = values_[0];
            for (const T value : values_)  // Vectorized, unlike std::minmax_element.
            {
                low = std::min(low, value);
                high = std::max(high, value);
            }
            const uint64_t range = uint64_t(high) - uint64_t(low) + 1;
            if (range <= kMaxCountedRange && range <= values_.size() &&
                values_.size() <= kMaxCountedValues)
            {
                return countedQuantile(position, low, range);
            }
        }
        const auto nth = values_.begin() + static_cast<ptrdiff_t>(position);
        std::nth_element(values_.begin(), nth, values_.end());
        return *nth;
    }
    static size_t positionOf(double level, size_t count)
    {
        return std::min(count - 1, static_cast<size_t>(level * double(count)));
    }

    uint64_t count() const { return values_.size(); }

    /// The count of values, then each value.
    void serialize(std::string& out) const
    {
        appendStateValue(out, uint64_t{values_.size()});
        for (const T value : values_)
        {
            appendStateValue(out, value);
        }
    }
    /// Reads serialized values, checking there is no NaN (never added).
    static ExactQuantile read(StateReader& reader)
    {
        ExactQuantile exact;
        const uint64_t count = reader.read<uint64_t>();
        // A corrupted count must not reserve more than the bytes could hold.
        exact.values_.reserve(std::min<uint64_t>(count, reader.left() / sizeof(T)));
        for (uint64_t i = 0; i < count; ++i)
        {
            const T value = reader.read<T>();
            if constexpr (std::is_floating_point_v<T>)
            {
                if (std::isnan(value))
                {
                    reader.fail("NaN among the values");
                }
            }
            exact.values_.push_back(value);
        }
        return exact;
    }

private:
    /// Integers of a range at most this wide (and no wider than their count) are counted
    /// value by value instead of partially sorted: one pass and a scan of the counts, where
    /// nth_element makes several passes of mispredicted branches (86 -> 5 ms for 9M
    /// ResolutionWidth values).
    static constexpr uint64_t kMaxCountedRange = uint64_t{1} << 16;
    /// Values are counted in kCountLanes arrays of 32-bit counts, value i in lane i % lanes:
    /// a run of one value then increments four counters in turn, not one chain of dependent
    /// increments. Each lane counts at most 2^32 - 1.
    static constexpr size_t kCountLanes = 4;
    static constexpr uint64_t kMaxCountedValues = kCountLanes * uint64_t{UINT32_MAX};

    /// The value at `position` of the values sorted, all within [low, low + range).
    T countedQuantile(size_t position, T low, uint64_t range) const
    {
        std::vector<uint32_t, TrackedAllocator<uint32_t>> counts(kCountLanes * range, 0);
        const auto offset_of = [&](T value) { return uint64_t(value) - uint64_t(low); };
        const size_t whole = values_.size() / kCountLanes * kCountLanes;
        for (size_t i = 0; i < whole; i += kCountLanes)
        {
            for (size_t lane = 0; lane < kCountLanes; ++lane)
            {
                ++counts[lane * range + offset_of(values_[i + lane])];
            }
        }
        for (size_t i = whole; i < values_.size(); ++i)
        {
            ++counts[offset_of(values_[i])];
        }
        uint64_t below = 0;
        for (uint64_t offset = 0;; ++offset)
        {
            for (size_t lane = 0; lane < kCountLanes; ++lane)
            {
                below += counts[lane * range + offset];
            }
            if (below > position)
            {
                return static_cast<T>(uint64_t(low) + offset);
            }
        }
    }

    std::vector<T, TrackedAllocator<T>> values_;
};

}  // namespace granary
