#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace granary
{

/// Grower policy: capacity is a power of two (slot = hash & mask), the table grows when it
/// holds more than MaxLoadPercent of its capacity.
template <size_t InitialSizeDegree = 8, size_t MaxLoadPercent = 50>
class HashTableGrower
{
public:
    static_assert(MaxLoadPercent > 0 && MaxLoadPercent < 100, "linear probing needs empty slots");
    /// 2^8 cells: a small table stays within a few pages, tiny GROUP BYs stay cheap.
    static constexpr size_t kInitialSizeDegree = InitialSizeDegree;
    /// Below 2^23 cells (a table still in L2/L3 range) grow 4x: fewer rehashes while cheap.
    static constexpr size_t kFastGrowthLimitDegree = 23;
    static constexpr size_t kMaxLoadPercent = MaxLoadPercent;

    size_t sizeDegree() const { return size_degree_; }
    size_t capacity() const { return size_t{1} << size_degree_; }
    size_t mask() const { return capacity() - 1; }
    size_t maxFill() const { return capacity() * kMaxLoadPercent / 100; }
    bool overflows(size_t element_count) const { return element_count > maxFill(); }

    void increaseSize() { size_degree_ += size_degree_ >= kFastGrowthLimitDegree ? 1 : 2; }

    /// Smallest capacity that holds `element_count` elements without growing.
    void setMinimumFor(size_t element_count)
    {
        while (overflows(element_count))
        {
            ++size_degree_;
        }
    }

private:
    size_t size_degree_ = kInitialSizeDegree;
};

}  // namespace granary
