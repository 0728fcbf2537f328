#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace granary
{

/// Rows hashed together before their emplaces: big enough to run far ahead of the probes,
/// small enough that the hashes stay in L1.
inline constexpr size_t kHashBatchRows = 256;
/// How many rows ahead the cell of a future row is prefetched: enough in-flight cache misses to
/// approach the machine's random-load throughput instead of paying each load's latency.
inline constexpr size_t kPrefetchDistance = 16;

/// String tables pick the sub-table to prefetch from the key; the others need only the hash.
template <typename Table, typename Key>
void prefetchSlot(const Table& table, const Key& key, uint64_t hash)
{
    if constexpr (requires { table.prefetch(key, hash); })
    {
        table.prefetch(key, hash);
    }
    else
    {
        table.prefetch(hash);
    }
}

/// Emplaces keys[0..count) into `table`, calling on_cell(emplace_result, inserted, row) for each row.
/// Hashes are computed a batch at a time and the cell of row i + kPrefetchDistance is
/// prefetched while row i is inserted, so large tables (one cache miss per row) overlap
/// their misses. Works with every table kind that has hash/prefetch/emplace(key, hash, ...).
template <typename Table, typename Key, typename OnCell>
void emplaceBatch(Table& table, const Key* keys, size_t count, OnCell&& on_cell)
{
    std::array<uint64_t, kHashBatchRows> hashes;
    for (size_t begin = 0; begin < count; begin += kHashBatchRows)
    {
        const size_t rows = std::min(kHashBatchRows, count - begin);
        const Key* batch = keys + begin;
        for (size_t i = 0; i < rows; ++i)
        {
            hashes[i] = table.hash(batch[i]);
        }
        const size_t warm_up = std::min(kPrefetchDistance, rows);
        for (size_t i = 0; i < warm_up; ++i)
        {
            prefetchSlot(table, batch[i], hashes[i]);
        }
        for (size_t i = 0; i < rows; ++i)
        {
            if (i + kPrefetchDistance < rows)
            {
                prefetchSlot(table, batch[i + kPrefetchDistance], hashes[i + kPrefetchDistance]);
            }
            bool inserted;
            on_cell(table.emplace(batch[i], hashes[i], inserted), inserted, begin + i);
        }
    }
}

}  // namespace granary
