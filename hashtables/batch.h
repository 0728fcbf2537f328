#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "hashtables/prefetch.h"

namespace granary
{

/// Rows hashed together before their emplaces: enough to run far ahead of the probes, few
/// enough that the hashes stay in L1.
inline constexpr size_t kHashBatchRows = 256;

/// String tables pick the sub-table to prefetch from from the key; the others need the hash.
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

/// Emplaces keys[0..count) into `table`, calling on_cell(emplace_result, inserted, row) once
/// for each row; each key's rows come in row order (its first one with inserted = true), rows
/// of different keys not necessarily. Hashes are computed a batch at a time, so the probes of
/// later rows can be prefetched while earlier rows are inserted. Single-level tables run their
/// own loops (emplaceMany); the others (two-level, string and direct-mapped tables) prefetch the
/// slot of each key kPrefetchRowsAhead rows ahead here, in row order.
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
        if constexpr (requires { table.emplaceMany(batch, hashes.data(), rows, on_cell); })
        {
            table.emplaceMany(batch, hashes.data(), rows,
                              [&](auto* cell, bool inserted, size_t i)
                              { on_cell(cell, inserted, begin + i); });
        }
        else
        {
            for (size_t i = 0; i < rows; ++i)
            {
                if (i + kPrefetchRowsAhead < rows)
                {
                    prefetchSlot(table, batch[i + kPrefetchRowsAhead],
                                 hashes[i + kPrefetchRowsAhead]);
                }
                bool inserted;
                auto* result = table.emplace(batch[i], hashes[i], inserted);
                on_cell(result, inserted, begin + i);
            }
        }
    }
}

}  // namespace granary
