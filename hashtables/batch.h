#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "hashtables/prefetch.h"

namespace granary
{

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
/// of different keys not necessarily. Single-level tables run their own loops (emplaceMany);
/// for the others (two-level, string and direct-mapped tables) hashes are computed a batch at
/// a time here, so the slot of each key can be prefetched kPrefetchRowsAhead rows ahead.
template <typename Table, typename Key, typename OnCell>
void emplaceBatch(Table& table, const Key* keys, size_t count, OnCell&& on_cell)
{
    if constexpr (requires { table.emplaceMany(keys, count, on_cell); })
    {
        table.emplaceMany(keys, count, on_cell);
    }
    else
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
