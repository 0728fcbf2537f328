#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "hashtables/allocator.h"

namespace granary
{

/// Direct-mapped table for 8- and 16-bit keys: the key is the slot, so there is no hashing,
/// probing or resizing. Signed keys map to slots through their unsigned bit pattern.
/// Iteration visits keys in slot order. Mapped = void gives a set.
///
/// The slots of 16-bit keys are zeroed block by block on first use, and iteration and size()
/// visit the used blocks only: a partial that meets a handful of keys neither zeroes nor scans
/// 65536 cells (1 MiB), a cost each of a query's workers would pay again.
template <typename KeyType, typename MappedType>
class FixedHashTable
{
    static_assert(std::is_integral_v<KeyType> && sizeof(KeyType) <= 2,
                  "direct mapping is for 8- and 16-bit keys");
    using SlotIndex = std::make_unsigned_t<KeyType>;

    struct SetPart
    {
        KeyType key_{};
        bool occupied_ = false;
    };
    struct MapPart : SetPart
    {
        static_assert(std::is_trivially_copyable_v<MappedType>);
        MappedType mapped_{};
        MappedType& mapped() { return mapped_; }
        const MappedType& mapped() const { return mapped_; }
    };

public:
    using Key = KeyType;
    using Mapped = MappedType;
    /// 256 or 65536 slots: the whole key domain.
    static constexpr size_t kSlotCount = size_t{1} << (8 * sizeof(KeyType));

    struct Cell : std::conditional_t<std::is_void_v<MappedType>, SetPart, MapPart>
    {
        using Mapped = MappedType;
        const Key& key() const { return this->key_; }
    };

    /// Slots zeroed together: 256 blocks for 16-bit keys, which are the key ranges the
    /// merge's 256 bucket tasks fill in parallel (slotRange), so no two tasks share a block.
    /// 8-bit keys (4 KiB of cells) make one block, zeroed at construction.
    static constexpr size_t kBlockSlots = kSlotCount > 256 ? kSlotCount / 256 : kSlotCount;
    static constexpr size_t kBlockCount = kSlotCount / kBlockSlots;

    FixedHashTable()
        : cells_(static_cast<Cell*>(UninitializedAllocator::allocate(kSlotCount * sizeof(Cell))))
    {
        if constexpr (kBlockCount == 1)
        {
            touchBlock(0);
        }
    }
    ~FixedHashTable() { UninitializedAllocator::deallocate(cells_, kSlotCount * sizeof(Cell)); }
    FixedHashTable(const FixedHashTable&) = delete;
    FixedHashTable& operator=(const FixedHashTable&) = delete;

    Cell* emplace(Key key, bool& inserted)
    {
        const SlotIndex slot = static_cast<SlotIndex>(key);
        if constexpr (kBlockCount > 1)
        {
            touchBlock(slot / kBlockSlots);
        }
        return emplaceInTouchedBlock(key, inserted);
    }

    /// emplace() for keys[0..count), calling on_cell(cell, inserted, row) for each row in row
    /// order. The blocks are touched once per call, so that the emplacing loop has no branch
    /// but the slot's occupancy. The keys must lie in blocks that only this thread fills.
    template <typename OnCell>
    void emplaceMany(const Key* keys, size_t count, OnCell&& on_cell)
    {
        if constexpr (kBlockCount > 1)
        {
            touchBlocksSpanned(keys, count);
        }
        for (size_t row = 0; row < count; ++row)
        {
            bool inserted;
            Cell* cell = emplaceInTouchedBlock(keys[row], inserted);
            on_cell(cell, inserted, row);
        }
    }
    /// Same as emplace(key): the hash is not used, the signature matches the hashed tables.
    Cell* emplace(Key key, uint64_t /*hash*/, bool& inserted) { return emplace(key, inserted); }

    Cell* find(Key key)
    {
        const SlotIndex slot = static_cast<SlotIndex>(key);
        if (!blockTouched(slot / kBlockSlots))
        {
            return nullptr;
        }
        Cell& cell = cells_[slot];
        return cell.occupied_ ? &cell : nullptr;
    }
    const Cell* find(Key key) const { return const_cast<FixedHashTable*>(this)->find(key); }
    bool contains(Key key) const { return find(key) != nullptr; }

    uint64_t hash(Key key) const { return static_cast<SlotIndex>(key); }
    uint64_t cellHash(const Cell& cell) const { return hash(cell.key()); }
    void prefetch(uint64_t /*hash*/) const {}

    template <typename F>
    void forEachCell(F&& f)
    {
        forEachCellInSlots(0, kSlotCount, f);
    }
    template <typename F>
    void forEachCell(F&& f) const
    {
        const_cast<FixedHashTable*>(this)->forEachCell([&](const Cell& cell) { f(cell); });
    }

    /// The cells of slots [first_slot, end_slot) as a table-like view (forEachCell, cellHash),
    /// so that merges and finalization can split the key domain into independent tasks.
    class SlotRange
    {
    public:
        SlotRange(FixedHashTable& table, size_t first_slot, size_t end_slot)
            : table_(table), first_slot_(first_slot), end_slot_(end_slot)
        {
        }
        template <typename F>
        void forEachCell(F&& f) const
        {
            table_.forEachCellInSlots(first_slot_, end_slot_, f);
        }
        uint64_t cellHash(const Cell& cell) const { return table_.cellHash(cell); }

    private:
        FixedHashTable& table_;
        size_t first_slot_;
        size_t end_slot_;
    };
    SlotRange slotRange(size_t first_slot, size_t end_slot)
    {
        return SlotRange(*this, first_slot, end_slot);
    }

    /// Slot-range iteration, so that merges and finalization can split the key domain.
    template <typename F>
    void forEachCellInSlots(size_t first_slot, size_t end_slot, F&& f)
    {
        for (size_t slot = first_slot; slot < end_slot;)
        {
            const size_t block_end = std::min(end_slot, (slot / kBlockSlots + 1) * kBlockSlots);
            if (blockTouched(slot / kBlockSlots))
            {
                for (; slot < block_end; ++slot)
                {
                    if (cells_[slot].occupied_)
                    {
                        f(cells_[slot]);
                    }
                }
            }
            slot = block_end;
        }
    }

    /// Counted by a scan of the used blocks' slots: without a shared counter, disjoint slot
    /// ranges can be filled by different threads at once.
    size_t size() const
    {
        size_t count = 0;
        const_cast<FixedHashTable*>(this)->forEachCell([&](const Cell&) { ++count; });
        return count;
    }
    bool empty() const { return size() == 0; }
    size_t bufferBytes() const { return kSlotCount * sizeof(Cell); }

private:
    Cell* emplaceInTouchedBlock(Key key, bool& inserted)
    {
        Cell& cell = cells_[static_cast<SlotIndex>(key)];
        inserted = !cell.occupied_;
        if (inserted)
        {
            cell.occupied_ = true;
            cell.key_ = key;
        }
        return &cell;
    }
    bool blockTouched(size_t block) const
    {
        return (touched_[block / 64].load(std::memory_order_acquire) >> (block % 64)) & 1;
    }
    /// Touches every block from the lowest of the keys' slots to the highest: a min/max pass
    /// costs less than a test per key, and the blocks between that the keys skip are zeroed
    /// once, which is at most what zeroing the whole table up front would cost.
    void touchBlocksSpanned(const Key* keys, size_t count)
    {
        if (count == 0)
        {
            return;
        }
        SlotIndex lowest = std::numeric_limits<SlotIndex>::max();
        SlotIndex highest = 0;
        for (size_t row = 0; row < count; ++row)
        {
            const SlotIndex slot = static_cast<SlotIndex>(keys[row]);
            lowest = std::min(lowest, slot);
            highest = std::max(highest, slot);
        }
        for (size_t block = lowest / kBlockSlots; block <= highest / kBlockSlots; ++block)
        {
            touchBlock(block);
        }
    }
    /// Zeroes the block on its first use. Only the task filling the block's slots touches it.
    void touchBlock(size_t block)
    {
        if (!blockTouched(block)) [[unlikely]]
        {
            std::memset(static_cast<void*>(cells_ + block * kBlockSlots), 0,
                        kBlockSlots * sizeof(Cell));
            touched_[block / 64].fetch_or(uint64_t{1} << (block % 64), std::memory_order_release);
        }
    }

    Cell* cells_;
    /// One bit per block: its cells have been zeroed (and may be occupied).
    std::array<std::atomic<uint64_t>, (kBlockCount + 63) / 64> touched_{};
};

}  // namespace granary
