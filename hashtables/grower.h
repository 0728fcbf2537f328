#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace granary
{

/// Grower policy: capacity is a power of two (slot = hash & mask), the table grows when it
/// holds more than MaxLoadPercent of its capacity.
/// InitialSizeDegree: 2^8 cells by default, a small table stays within a few pages.
/// MaxLoadPercent: 50 by default, short probe sequences; two-level buckets use more (memory).
/// FastGrowthLimitDegree: below 2^23 cells (still cache-sized) grow 4x, fewer rehashes while
/// they are cheap; above it, and always when the limit is 0, grow 2x to bound the slack.
/// SparseLimitDegree: tables of up to 2^SparseLimitDegree cells fill to kSparseLoadPercent
/// only, so nearly every key sits in its home slot and a lookup takes one predictable branch
/// (0: never sparse).
template <size_t InitialSizeDegree = 8, size_t MaxLoadPercent = 50,
          size_t FastGrowthLimitDegree = 23, size_t SparseLimitDegree = 0>
class HashTableGrower
{
public:
    static_assert(MaxLoadPercent > 0 && MaxLoadPercent < 100, "linear probing needs empty slots");
    static constexpr size_t kInitialSizeDegree = InitialSizeDegree;
    static constexpr size_t kFastGrowthLimitDegree = FastGrowthLimitDegree;
    static constexpr size_t kMaxLoadPercent = MaxLoadPercent;
    static constexpr size_t kSparseLimitDegree = SparseLimitDegree;
    /// One key in eight slots: ~94 % of keys at home under linear probing.
    static constexpr size_t kSparseLoadPercent = 12;

    size_t sizeDegree() const { return size_degree_; }
    size_t capacity() const { return size_t{1} << size_degree_; }
    size_t mask() const { return capacity() - 1; }
    size_t maxFill() const
    {
        const size_t load_percent =
            size_degree_ <= kSparseLimitDegree ? kSparseLoadPercent : kMaxLoadPercent;
        return capacity() * load_percent / 100;
    }
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
