#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "alloc/arena.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "hashtables/string_hash_table.h"

namespace granary
{

/// Numbers distinct strings and keeps them, so that a plan built for 64-bit keys can carry
/// string keys as their numbers (value buckets route a string GROUP BY key so,
/// countDistinctByValueBuckets). A string's number is its hash bucket (of 256) and its index
/// among that bucket's strings in order of first appearance: several workers' numberings are
/// made one bucket by bucket, in parallel, each bucket's table a 256th of the keys.
class KeyNumbering
{
public:
    using Table = TwoLevelStringHashTable<uint64_t>;
    static constexpr size_t kBucketCount = Table::kBucketCount;

    KeyNumbering();

    static size_t bucketOf(uint64_t number) { return number >> kIndexBits; }
    static size_t indexOf(uint64_t number) { return number & kIndexMask; }

    /// The numbers of rows [0, count) of a String column, in `out`; new strings get the next
    /// numbers of their buckets.
    void number(const ColumnView& strings, size_t count, uint64_t* out);

    /// Adds the strings of `other`'s bucket `bucket` to this numbering's same bucket and
    /// returns their indexes here, in `other`'s order. Tasks may absorb different buckets at
    /// once; `other` must outlive this numbering (its long strings are referenced).
    std::vector<uint64_t> absorbBucket(const KeyNumbering& other, size_t bucket);

    /// Strings numbered so far.
    size_t size() const { return numbers_.size(); }
    /// The strings of bucket `bucket`, in index order.
    const Column& bucketKeys(size_t bucket) const { return keys_[bucket]; }

private:
    /// Keeps `key` as the next string of `bucket`; returns its number.
    uint64_t addString(size_t bucket, std::string_view key);

    /// Bits of a string's index within its bucket; the bucket is above them.
    static constexpr unsigned kIndexBits = 48;
    static constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;

    Arena arena_;  ///< Copies of long strings the table keeps.
    Table numbers_{&arena_};
    std::array<Column, kBucketCount> keys_;
    std::vector<std::string_view> batch_;
};

}  // namespace granary
