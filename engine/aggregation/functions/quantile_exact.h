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

    /// The element at positionOf(level, n); NaN for no floats, 0 for no integers. Reorders the
    /// values.
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
        const auto nth =
            values_.begin() + static_cast<ptrdiff_t>(positionOf(level, values_.size()));
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
    std::vector<T, TrackedAllocator<T>> values_;
};

}  // namespace granary
