#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <type_traits>

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

namespace internal
{

/// Length classes of string keys: the branches of hashing and comparing keys (hash.cpp,
/// key_equality.h) and the string tables' sub-table dispatch depend on the class only.
/// Class boundaries: lengths up to 8, 16, 24, 32, 64, 128 bytes, and longer.
inline constexpr size_t kStringLengthClasses = 7;
/// Lengths above this are all in the last class.
inline constexpr size_t kLongestClassedLength = 128;

inline constexpr std::array<uint8_t, kLongestClassedLength + 2> kClassOfLength = []
{
    std::array<uint8_t, kLongestClassedLength + 2> classes{};
    for (size_t length = 0; length < classes.size(); ++length)
    {
        classes[length] = static_cast<uint8_t>((length > 8) + (length > 16) + (length > 24) +
                                               (length > 32) + (length > 64) + (length > 128));
    }
    return classes;
}();

inline uint8_t stringLengthClass(size_t length)
{
    return kClassOfLength[std::min(length, kLongestClassedLength + 1)];
}

/// Bits of one class's cursor in the packed cursors of orderByLengthClass: a class holds at
/// most kHashBatchRows rows, and seven 9-bit fields fit one 64-bit register.
inline constexpr unsigned kClassCursorBits = 9;
static_assert(kHashBatchRows < (size_t{1} << kClassCursorBits) &&
              kStringLengthClasses * kClassCursorBits <= 64);

/// Writes the positions of keys[0..rows) to `order` class by class of length, each class in
/// row order. A counting sort whose per-class cursors are fields of one register: cursors in
/// memory would chain each row's increment through a store and a load, and one pass per class
/// costs passes times rows.
inline void orderByLengthClass(const std::string_view* keys, size_t rows, uint32_t* order)
{
    std::array<uint8_t, kHashBatchRows> cursor_shifts;
    uint64_t counts = 0;
    for (size_t i = 0; i < rows; ++i)
    {
        cursor_shifts[i] =
            static_cast<uint8_t>(kClassCursorBits * internal::stringLengthClass(keys[i].size()));
        counts += uint64_t{1} << cursor_shifts[i];
    }
    // Multiplying by a 1 in every higher field adds each class's count to all the fields above
    // it: field c becomes the number of rows in classes below c, where class c starts. No field
    // carries, as their total is at most kHashBatchRows.
    constexpr uint64_t kOneInEveryHigherField = []
    {
        uint64_t fields = 0;
        for (size_t c = 1; c < kStringLengthClasses; ++c)
        {
            fields |= uint64_t{1} << (kClassCursorBits * c);
        }
        return fields;
    }();
    uint64_t cursors = counts * kOneInEveryHigherField;
    constexpr uint64_t kCursorMask = (uint64_t{1} << kClassCursorBits) - 1;
    for (size_t i = 0; i < rows; ++i)
    {
        order[(cursors >> cursor_shifts[i]) & kCursorMask] = static_cast<uint32_t>(i);
        cursors += uint64_t{1} << cursor_shifts[i];
    }
}

}  // namespace internal

/// Hashes the `rows` keys of `batch` in the order row_of(0), row_of(1), ..., then emplaces
/// them in that order, each slot prefetched kPrefetchRowsAhead rows ahead, and reports each row
/// as first_row + its position in the batch.
template <typename Table, typename Key, typename RowOf, typename OnCell>
void emplaceInOrder(Table& table, const Key* batch, size_t rows, size_t first_row, RowOf row_of,
                    OnCell& on_cell)
{
    std::array<uint64_t, kHashBatchRows> hashes;
    constexpr bool kKeysPointAtBytes = std::is_same_v<Key, std::string_view>;
    if constexpr (kKeysPointAtBytes)
    {
        for (size_t j = 0; j < std::min(rows, kPrefetchKeyBytesAhead); ++j)
        {
            prefetchBytes(batch[row_of(j)]);
        }
    }
    for (size_t j = 0; j < rows; ++j)
    {
        // Views may point anywhere (into a pool of distinct strings, say); the bytes of later
        // keys load while this one is hashed.
        if constexpr (kKeysPointAtBytes)
        {
            if (j + kPrefetchKeyBytesAhead < rows)
            {
                prefetchBytes(batch[row_of(j + kPrefetchKeyBytesAhead)]);
            }
        }
        hashes[j] = table.hash(batch[row_of(j)]);
        // The loop below prefetches kPrefetchRowsAhead rows ahead of itself, so its first rows
        // are prefetched here, a batch of hashing before their emplaces.
        if (j < kPrefetchRowsAhead)
        {
            prefetchSlot(table, batch[row_of(j)], hashes[j]);
        }
    }
    for (size_t j = 0; j < rows; ++j)
    {
        if (j + kPrefetchRowsAhead < rows)
        {
            prefetchSlot(table, batch[row_of(j + kPrefetchRowsAhead)],
                         hashes[j + kPrefetchRowsAhead]);
        }
        const size_t i = row_of(j);
        bool inserted;
        auto* result = table.emplace(batch[i], hashes[j], inserted);
        on_cell(result, inserted, first_row + i);
    }
}

/// emplaceBatch for string tables. While the table is cache-resident the rows of a batch are
/// taken class by class of length, so that on URL-like keys, whose lengths vary from row to
/// row, the branches on the length go the same way for runs of rows instead of mispredicting
/// on most; a key's rows share a class, so they still come in row order. Tables beyond the
/// caches keep row order: there the misses dominate, and the reordering measured 10-20 %
/// slower at 10^5 URL keys.
template <typename Table, typename OnCell>
void emplaceStringBatch(Table& table, const std::string_view* keys, size_t count, OnCell& on_cell)
{
    std::array<uint32_t, kHashBatchRows> order;
    for (size_t begin = 0; begin < count; begin += kHashBatchRows)
    {
        const size_t rows = std::min(kHashBatchRows, count - begin);
        const std::string_view* batch = keys + begin;
        if (table.prefetchWorthwhile())
        {
            std::iota(order.begin(), order.begin() + rows, 0);
        }
        else
        {
            internal::orderByLengthClass(batch, rows, order.data());
        }
        emplaceInOrder(
            table, batch, rows, begin, [&](size_t j) -> size_t { return order[j]; }, on_cell);
    }
}

/// Emplaces keys[0..count) into `table`, calling on_cell(emplace_result, inserted, row) once
/// for each row; each key's rows come in row order (its first one with inserted = true), rows
/// of different keys not necessarily. Single-level and direct-mapped tables run their own loops
/// (emplaceMany), string tables emplaceStringBatch; for the others (two-level tables) hashes
/// are computed a batch at a time here, so the slot of each key can be prefetched
/// kPrefetchRowsAhead rows ahead.
template <typename Table, typename Key, typename OnCell>
void emplaceBatch(Table& table, const Key* keys, size_t count, OnCell&& on_cell)
{
    if constexpr (requires { table.emplaceMany(keys, count, on_cell); })
    {
        table.emplaceMany(keys, count, on_cell);
    }
    else if constexpr (std::is_same_v<Key, std::string_view> &&
                       requires { table.prefetchWorthwhile(); })
    {
        emplaceStringBatch(table, keys, count, on_cell);
    }
    else
    {
        for (size_t begin = 0; begin < count; begin += kHashBatchRows)
        {
            emplaceInOrder(
                table, keys + begin, std::min(kHashBatchRows, count - begin), begin,
                [](size_t j) { return j; }, on_cell);
        }
    }
}

}  // namespace granary
