#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include "hashtables/allocator.h"

namespace granary
{

/// Direct-mapped table for 8- and 16-bit keys: the key is the slot, so there is no hashing,
/// probing or resizing. Signed keys map to slots through their unsigned bit pattern.
/// Iteration visits keys in slot order. Mapped = void gives a set.
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

    FixedHashTable()
        : cells_(static_cast<Cell*>(ZeroedAllocator::allocate(kSlotCount * sizeof(Cell))))
    {
    }
    ~FixedHashTable() { ZeroedAllocator::deallocate(cells_, kSlotCount * sizeof(Cell)); }
    FixedHashTable(const FixedHashTable&) = delete;
    FixedHashTable& operator=(const FixedHashTable&) = delete;

    Cell* emplace(Key key, bool& inserted)
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
    /// Same as emplace(key): the hash is not used, the signature matches the hashed tables.
    Cell* emplace(Key key, uint64_t /*hash*/, bool& inserted) { return emplace(key, inserted); }

    Cell* find(Key key)
    {
        Cell& cell = cells_[static_cast<SlotIndex>(key)];
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
        for (size_t slot = 0; slot < kSlotCount; ++slot)
        {
            if (cells_[slot].occupied_)
            {
                f(cells_[slot]);
            }
        }
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
        for (size_t slot = first_slot; slot < end_slot; ++slot)
        {
            if (cells_[slot].occupied_)
            {
                f(cells_[slot]);
            }
        }
    }

    /// Counted by a scan of the (at most 65536) slots: without a shared counter, disjoint slot
    /// ranges can be filled by different threads at once.
    size_t size() const
    {
        size_t count = 0;
        for (size_t slot = 0; slot < kSlotCount; ++slot)
        {
            count += cells_[slot].occupied_ ? 1 : 0;
        }
        return count;
    }
    bool empty() const { return size() == 0; }
    size_t bufferBytes() const { return kSlotCount * sizeof(Cell); }

private:
    Cell* cells_;
};

}  // namespace granary
