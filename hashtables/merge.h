#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hashtables/batch.h"

namespace granary
{

/// Does nothing with a freshly inserted cell (the default for keys that need no persisting).
struct KeepInsertedCell
{
    template <typename Cell>
    void operator()(Cell&) const
    {
    }
};

/// Folds one source cell into `target` (see mergeTables).
template <typename Target, typename Cell, typename MergeMapped, typename OnInserted>
void mergeCell(Target& target, const Cell& cell, uint64_t hash, MergeMapped& merge_mapped,
               OnInserted& on_inserted)
{
    bool inserted;
    auto* merged = target.emplace(cell.key(), hash, inserted);
    if constexpr (!std::is_void_v<typename Cell::Mapped>)
    {
        if (inserted)
        {
            merged->mapped() = cell.mapped();
        }
        else
        {
            merge_mapped(merged->mapped(), cell.mapped());
        }
    }
    if (inserted)
    {
        on_inserted(*merged);
    }
}

/// Merges `source` into `target`, for any pair of tables with the same key kind (single-level,
/// two-level or fixed). A key only in `source` is inserted with its mapped value copied and
/// passed to `on_inserted`; a key in both gets merge_mapped(target_mapped, source_mapped).
/// Sets (Mapped = void) take the union. One function serves every table kind.
/// An open-addressing source is read in scrambled blocks (HashTable::forEachSlotBlockScrambled
/// says why), and each block's target slots are prefetched before its cells are inserted.
template <typename Target, typename Source, typename MergeMapped,
          typename OnInserted = KeepInsertedCell>
void mergeTables(Target& target, const Source& source, MergeMapped&& merge_mapped,
                 OnInserted&& on_inserted = {})
{
    if constexpr (requires { source.zeroCell(); })
    {
        using Cell = typename Source::Cell;
        if (const Cell* zero = source.zeroCell())
        {
            mergeCell(target, *zero, source.cellHash(*zero), merge_mapped, on_inserted);
        }
        source.forEachSlotBlockScrambled(
            [&](const Cell* cells, size_t count)
            {
                uint64_t hashes[Source::kScrambledBlockSlots];
                for (size_t i = 0; i < count; ++i)
                {
                    if (!cells[i].isZero())
                    {
                        hashes[i] = source.cellHash(cells[i]);
                        prefetchSlot(target, cells[i].key(), hashes[i]);
                    }
                }
                for (size_t i = 0; i < count; ++i)
                {
                    if (!cells[i].isZero())
                    {
                        mergeCell(target, cells[i], hashes[i], merge_mapped, on_inserted);
                    }
                }
            });
    }
    else
    {
        source.forEachCell(
            [&](const auto& cell)
            { mergeCell(target, cell, source.cellHash(cell), merge_mapped, on_inserted); });
    }
}

/// Union of two sets of any table kind.
template <typename Target, typename Source>
void mergeSets(Target& target, const Source& source)
{
    mergeTables(target, source, [](auto&, const auto&) {});
}

}  // namespace granary
