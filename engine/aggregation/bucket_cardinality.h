#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/aggregation/new_keys_estimate.h"
#include "hashtables/hash.h"

namespace granary
{

/// Distinct keys per two-level bucket, estimated from the keys' hashes while rows are
/// partitioned (HyperLogLog), so that each bucket's table is sized once before its rows are
/// aggregated instead of growing through a dozen rehashes from 16 cells.
class BucketCardinality
{
public:
    /// Buckets, selected by the hash's top byte as in the two-level tables.
    static constexpr size_t kBuckets = 256;
    static constexpr unsigned kBucketShift = 56;
    /// 64 one-byte registers per bucket: all buckets take 16 KiB and stay in L1 while rows are
    /// routed; the estimate's standard error is 1.04 / sqrt(64), about 13%.
    static constexpr size_t kRegisterBits = 6;
    static constexpr size_t kRegisters = size_t{1} << kRegisterBits;

    /// Records one key's hash.
    void add(uint64_t hash)
    {
        const size_t bucket = hash >> kBucketShift;
        // The tables' hash of sequential integers is a Weyl sequence in its low bits: far too
        // evenly spread for HyperLogLog, which then overestimates by ~80%. Mix once more.
        const uint64_t mixed = hashing::multiplyFold(hash, hashing::kSecondMultiplier);
        const size_t index = mixed >> (64 - kRegisterBits);
        // The rank: the bits below the index, the guard bit bounding it, byte-swapped so that
        // trailing zeros (one fast tzcnt, where leading zeros need the slow bsr on x86-64-v2)
        // read the product's best-mixed high bits first. Over sets of 30,000 to 3,000,000
        // sequential and random keys its estimates erred as the leading-zeros rank's did.
        const uint64_t rest =
            __builtin_bswap64((mixed << kRegisterBits) | (uint64_t{1} << (kRegisterBits - 1)));
        const auto rank = static_cast<uint8_t>(std::countr_zero(rest) + 1);
        uint8_t& slot = registers_[bucket][index];
        // Stored only when it rises, which soon becomes rare and well predicted. Hashing,
        // bucketing and sketching a row, in isolation: 7.2 ns with a store per row and bsr,
        // 3.2-3.6 with this branch, 1.9-2.6 with trailing zeros too.
        if (rank > slot)
        {
            slot = rank;
        }
    }

    /// Estimated distinct keys of `bucket` over all of `sketches` (their union).
    static size_t estimate(size_t bucket, std::span<const BucketCardinality* const> sketches);

    /// Routed rows per key from which a bucket's table is reserved sparse: one more cell per
    /// key then costs at most 4 bytes per row.
    static constexpr size_t kLookupHeavyRowsPerKey = 4;
    /// How much larger a lookup-heavy bucket's table is reserved: 19-37% full instead of
    /// 37-75%, where 81-90% of lookups end at the key's home slot instead of 63-81% (the
    /// others mispredict and take the full probe); docs/aggregation.md has the measurements.
    static constexpr size_t kLookupHeavyReserveFactor = 2;

    /// Sizes bucket `bucket`'s table before the routed keys go in: for what it holds and the
    /// estimate together, the held keys recurring among the `rows` routed rows as often as
    /// their repeats suggest (expectedUnion; without rows, cells of partials, for the larger
    /// of the two), and for kLookupHeavyReserveFactor times that where the rows about to be
    /// looked up number kLookupHeavyRowsPerKey or more per key. Reserving for the larger
    /// alone left Q19's string buckets (1M rows, one thread) 5-19% short: one more 4x growth.
    template <typename Table>
    static void reserve(Table& table, size_t bucket,
                        std::span<const BucketCardinality* const> sketches, size_t rows = 0)
    {
        const size_t routed = estimate(bucket, sketches);
        const size_t keys = rows == 0
                                ? std::max(table.size(), routed)
                                : static_cast<size_t>(expectedUnion(table.size(), routed, rows));
        const bool lookup_heavy = rows >= kLookupHeavyRowsPerKey * keys;
        table.reserve(lookup_heavy ? kLookupHeavyReserveFactor * keys : keys);
    }

private:
    std::array<std::array<uint8_t, kRegisters>, kBuckets> registers_{};
};

}  // namespace granary
