#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <utility>

#include "hashtables/allocator.h"
#include "hashtables/cells.h"
#include "hashtables/grower.h"
#include "hashtables/prefetch.h"

namespace granary
{

/// Open-addressing hash table with linear probing over a power-of-two array of cells.
/// Composed from policies: Cell (key layout, saved hash, mapped value), Hash, Grower (initial
/// size, load factor, growth steps) and Allocator. The zero key lives outside the array.
///
/// emplace() returns the cell of the key and tells whether it was inserted. Pointers to cells
/// stay valid until the next insertion that grows the table.
template <typename CellType, typename HashType, typename GrowerType = HashTableGrower<>,
          typename AllocatorType = ZeroedAllocator>
class HashTable : private HashType
{
public:
    using Cell = CellType;
    using Key = typename Cell::Key;
    using Hash = HashType;
    using Grower = GrowerType;

    /// An empty table allocates nothing: it reads from a shared all-empty array until its
    /// first insertion (a partial or a two-level bucket that stays empty costs no memory).
    HashTable() = default;
    explicit HashTable(size_t expected_elements)
    {
        grower_.setMinimumFor(expected_elements);
        allocateBuffer();
    }
    ~HashTable() { freeBuffer(); }

    HashTable(const HashTable&) = delete;
    HashTable& operator=(const HashTable&) = delete;
    /// A moved-from table is empty.
    HashTable(HashTable&& other) noexcept { swap(other); }
    HashTable& operator=(HashTable&& other) noexcept
    {
        swap(other);
        return *this;
    }

    void swap(HashTable& other) noexcept
    {
        std::swap(cells_, other.cells_);
        std::swap(element_count_, other.element_count_);
        std::swap(grower_, other.grower_);
        std::swap(has_zero_, other.has_zero_);
        std::swap(zero_cell_, other.zero_cell_);
        std::swap(grow_count_, other.grow_count_);
    }

    const Hash& hasher() const { return *this; }
    uint64_t hash(const Key& key) const { return hasher()(key); }
    /// Hash of a stored cell: the saved one where the cell keeps it.
    uint64_t cellHash(const Cell& cell) const { return cell.hash(hasher()); }

    /// Inserts `key` if absent; `hash` must equal hash(key).
    Cell* emplace(const Key& key, uint64_t hash, bool& inserted)
    {
        if (Cell::isZeroKey(key)) [[unlikely]]
        {
            return emplaceZero(key, hash, inserted);
        }
        allocateIfShared();
        Cell* cell = probeOrInsert(cells_, grower_.mask(), key, hash, inserted);
        if (inserted && grower_.overflows(++element_count_)) [[unlikely]]
        {
            grow();
            return findInArray(key, hash);
        }
        return cell;
    }

    Cell* emplace(const Key& key, bool& inserted) { return emplace(key, hash(key), inserted); }

    /// Emplaces keys[i] for i in [0, count), calling on_cell(cell, inserted, i) once per row,
    /// in row order, kHashBatchRows rows at a time. A table that fits in the caches hashes each
    /// key as it goes and tests its home slot alone: the grower keeps such tables sparse, so
    /// the test nearly always hits and its branch predicts well. A larger one hashes a batch
    /// first and prefetches the cell of row i + kPrefetchRowsAhead at row i, so the rows'
    /// cache misses overlap instead of each paying the full memory latency. In both loops the
    /// array pointer and mask stay in registers (through members, every store into a mapped
    /// value could alias them and force reloads).
    template <typename OnCell>
    void emplaceMany(const Key* keys, size_t count, OnCell&& on_cell)
    {
        allocateIfShared();
        std::array<uint64_t, kHashBatchRows> hashes;
        for (size_t begin = 0; begin < count; begin += kHashBatchRows)
        {
            const size_t rows = std::min(kHashBatchRows, count - begin);
            const Key* batch = keys + begin;
            auto on_batch_cell = [&](Cell* cell, bool inserted, size_t i)
            { on_cell(cell, inserted, begin + i); };
            if (!prefetchWorthwhile())
            {
                emplaceHomeFirst(batch, rows, on_batch_cell);
                continue;
            }
            for (size_t i = 0; i < rows; ++i)
            {
                hashes[i] = hash(batch[i]);
                // emplacePrefetching prefetches kPrefetchRowsAhead rows ahead of itself, so
                // its first rows are prefetched here, a batch of hashing before their probes.
                if (i < kPrefetchRowsAhead)
                {
                    prefetch(hashes[i]);
                }
            }
            emplacePrefetching(batch, hashes.data(), rows, on_batch_cell);
        }
    }

    /// Cells whose occupancy forEachCell gathers into one 64-bit mask.
    static constexpr size_t kScanCells = 64;

    /// Below this array size the table stays in L2 and prefetching only costs instructions.
    static constexpr size_t kPrefetchMinBytes = 1 << 20;
    bool prefetchWorthwhile() const { return bufferBytes() >= kPrefetchMinBytes; }

    /// The cell of `key`, or nullptr.
    Cell* find(const Key& key, uint64_t hash)
    {
        if (Cell::isZeroKey(key)) [[unlikely]]
        {
            return has_zero_ ? &zero_cell_ : nullptr;
        }
        return findInArray(key, hash);
    }
    Cell* find(const Key& key) { return find(key, hash(key)); }
    const Cell* find(const Key& key) const { return const_cast<HashTable*>(this)->find(key); }
    bool contains(const Key& key) const { return find(key) != nullptr; }

    /// Brings the slots of `hash` into cache ahead of an emplace or find of that hash.
    void prefetch(uint64_t hash) const { prefetchProbe(cells_, grower_.mask(), hash); }
    /// Reads the whole cell array in order, one load per cache line, before many lookups in
    /// random order: it then streams in at the memory's bandwidth (independent loads, in the
    /// order the hardware prefetcher follows) instead of one latency-bound miss per line.
    /// Prefetch instructions in the same loop left the lookups nearly as slow as no warming.
    void warmCells() const
    {
        const char* bytes = reinterpret_cast<const char*>(cells_);
        uint64_t sum = 0;
        for (size_t offset = 0; offset < bufferBytes(); offset += kPrefetchLineBytes)
        {
            uint64_t word;
            std::memcpy(&word, bytes + offset, sizeof(word));
            sum += word;
        }
        // Nothing reads the sum: this keeps the compiler from dropping the loads.
        asm volatile("" : : "r"(sum));
    }

    /// Calls f(cell) for every element, the zero key first. The occupancy of kScanCells cells
    /// is gathered into a bit mask without branching and the mask's set bits are visited: a
    /// branch per cell would mispredict on about every other cell of a half-full table.
    template <typename F>
    void forEachCell(F&& f)
    {
        if (has_zero_)
        {
            f(zero_cell_);
        }
        const size_t capacity = grower_.capacity();
        if (capacity < kScanCells)
        {
            visitOccupied(cells_, occupancyMask(cells_, capacity), f);
            return;
        }
        for (size_t first = 0; first < capacity; first += kScanCells)
        {
            visitOccupied(cells_ + first, occupancyMask(cells_ + first, kScanCells), f);
        }
    }
    template <typename F>
    void forEachCell(F&& f) const
    {
        const_cast<HashTable*>(this)->forEachCell([&](const Cell& cell) { f(cell); });
    }

    /// Copies every element's key and mapped value out, Batch at a time, and calls
    /// flush(keys, mapped, count) for each batch, the zero key first. Each cell is copied
    /// whether occupied or not and the count advances only for occupied ones: at half load a
    /// branch per cell would mispredict every other cell.
    template <size_t Batch, typename Flush>
    requires requires(Cell cell) { cell.mapped(); }
    void collectElements(Flush&& flush) const
    {
        using Mapped = std::remove_cvref_t<decltype(std::declval<const Cell&>().mapped())>;
        std::array<Key, Batch> keys;
        std::array<Mapped, Batch> mapped;
        size_t count = 0;
        if (has_zero_)
        {
            keys[0] = zero_cell_.key();
            mapped[0] = zero_cell_.mapped();
            count = 1;
        }
        const Cell* cell = cells_;
        const Cell* const end = cells_ + grower_.capacity();
        while (cell != end)
        {
            // Cells that fit the batch even if all are occupied; no test inside the loop, so
            // the compiler has no reason to branch on occupancy.
            const Cell* const run_end =
                cell + std::min<size_t>(static_cast<size_t>(end - cell), Batch - count);
            for (; cell != run_end; ++cell)
            {
                keys[count] = cell->key();
                mapped[count] = cell->mapped();
                count += static_cast<size_t>(!cell->isZero());
            }
            if (count == Batch)
            {
                flush(keys.data(), mapped.data(), count);
                count = 0;
            }
        }
        if (count > 0)
        {
            flush(keys.data(), mapped.data(), count);
        }
    }

    size_t size() const { return element_count_ + (has_zero_ ? 1 : 0); }
    bool empty() const { return size() == 0; }
    size_t capacity() const { return grower_.capacity(); }
    /// Bytes of the cell array (0 while the table still reads the shared empty array).
    size_t bufferBytes() const
    {
        return cells_ == sharedEmptyCells() ? 0 : grower_.capacity() * sizeof(Cell);
    }
    /// Times the array was reallocated (growth or reservation).
    size_t growCount() const { return grow_count_; }

    void clear()
    {
        freeBuffer();
        grower_ = Grower();
        element_count_ = 0;
        has_zero_ = false;
        zero_cell_ = Cell();
    }

    /// Makes room for `element_count` elements in total without further growth.
    void reserve(size_t element_count)
    {
        Grower target = grower_;
        target.setMinimumFor(element_count);
        if (target.sizeDegree() > grower_.sizeDegree())
        {
            rehashInto(target);
        }
    }

    class iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Cell;
        using difference_type = std::ptrdiff_t;
        using pointer = Cell*;
        using reference = Cell&;

        iterator() = default;
        Cell& operator*() const { return *cell_; }
        Cell* operator->() const { return cell_; }
        iterator& operator++()
        {
            cell_ = cell_ == &table_->zero_cell_ ? table_->firstInArray(table_->cells_)
                                                 : table_->firstInArray(cell_ + 1);
            return *this;
        }
        iterator operator++(int)
        {
            iterator previous = *this;
            ++*this;
            return previous;
        }
        bool operator==(const iterator& other) const { return cell_ == other.cell_; }

    private:
        friend class HashTable;
        iterator(HashTable* table, Cell* cell) : table_(table), cell_(cell) {}
        HashTable* table_ = nullptr;
        Cell* cell_ = nullptr;
    };

    iterator begin() { return {this, has_zero_ ? &zero_cell_ : firstInArray(cells_)}; }
    iterator end() { return {this, cells_ + grower_.capacity()}; }

private:
    Cell* emplaceZero(const Key& key, uint64_t hash, bool& inserted)
    {
        inserted = !has_zero_;
        if (inserted)
        {
            has_zero_ = true;
            zero_cell_.setKey(key, hash);
        }
        return &zero_cell_;
    }

    /// Bit i set when cells[i] holds an element, i < count <= 64. Inlined with count =
    /// kScanCells the loop unrolls into straight-line tests.
    static uint64_t occupancyMask(const Cell* cells, size_t count)
    {
        uint64_t occupied = 0;
#pragma GCC unroll 64
        for (size_t i = 0; i < count; ++i)
        {
            occupied |= static_cast<uint64_t>(!cells[i].isZero()) << i;
        }
        return occupied;
    }

    template <typename F>
    static void visitOccupied(Cell* cells, uint64_t occupied, F& f)
    {
        for (; occupied != 0; occupied &= occupied - 1)
        {
            f(cells[std::countr_zero(occupied)]);
        }
    }

    /// emplaceMany's loop for a table that fits in the caches: a key in its home slot is
    /// handed over after one test; any other row (a displaced or new key, the zero key) takes
    /// the full emplace, which may grow the table.
    template <typename OnCell>
    void emplaceHomeFirst(const Key* keys, size_t count, OnCell& on_cell)
    {
        Cell* cells = cells_;
        size_t mask = grower_.mask();
        for (size_t i = 0; i < count; ++i)
        {
            const uint64_t key_hash = hash(keys[i]);
            Cell* home = &cells[key_hash & mask];
            if (home->keyEquals(keys[i], key_hash) && !Cell::isZeroKey(keys[i])) [[likely]]
            {
                on_cell(home, false, i);
                continue;
            }
            bool inserted;
            Cell* cell = emplace(keys[i], key_hash, inserted);
            cells = cells_;
            mask = grower_.mask();
            on_cell(cell, inserted, i);
        }
    }

    /// emplaceMany's loop for a larger table, over precomputed hashes.
    template <typename OnCell>
    void emplacePrefetching(const Key* keys, const uint64_t* hashes, size_t count, OnCell& on_cell)
    {
        Cell* cells = cells_;
        size_t mask = grower_.mask();
        for (size_t i = 0; i < count; ++i)
        {
            if (i + kPrefetchRowsAhead < count)
            {
                prefetchProbe(cells, mask, hashes[i + kPrefetchRowsAhead]);
            }
            bool inserted;
            if (Cell::isZeroKey(keys[i])) [[unlikely]]
            {
                Cell* zero = emplaceZero(keys[i], hashes[i], inserted);
                on_cell(zero, inserted, i);
                continue;
            }
            Cell* cell = probeOrInsert(cells, mask, keys[i], hashes[i], inserted);
            if (inserted && grower_.overflows(++element_count_)) [[unlikely]]
            {
                grow();
                cells = cells_;
                mask = grower_.mask();
                cell = findInArray(keys[i], hashes[i]);
            }
            on_cell(cell, inserted, i);
        }
    }

    /// The home slot of `hash` and the slot after it, which probeOrInsert reads together:
    /// where the home slot ends a cache line, the next slot starts another, which would
    /// otherwise be a miss of its own.
    static void prefetchProbe(const Cell* cells, size_t mask, uint64_t hash)
    {
        const size_t slot = hash & mask;
        __builtin_prefetch(&cells[slot]);
        __builtin_prefetch(&cells[(slot + 1) & mask]);
    }

    /// Finds `key` (not the zero key) or puts it into the first empty slot of its probe
    /// sequence. Never grows: the caller counts the insertion and grows.
    static Cell* probeOrInsert(Cell* cells, size_t mask, const Key& key, uint64_t hash,
                               bool& inserted)
    {
        size_t slot = hash & mask;
        // Hits are the common case in aggregation. The home slot and its neighbour are tested
        // with one branch and picked with a mask: a key sits one slot past its home often
        // enough to make a per-slot branch mispredict.
        Cell* home = &cells[slot];
        Cell* next = &cells[(slot + 1) & mask];
        const uintptr_t home_mask = -static_cast<uintptr_t>(home->keyEquals(key, hash));
        const uintptr_t next_mask = -static_cast<uintptr_t>(next->keyEquals(key, hash));
        if ((home_mask | next_mask) != 0)
        {
            inserted = false;
            return reinterpret_cast<Cell*>((reinterpret_cast<uintptr_t>(home) & home_mask) |
                                           (reinterpret_cast<uintptr_t>(next) & ~home_mask));
        }
        while (true)
        {
            Cell& cell = cells[slot];
            if (cell.keyEquals(key, hash))
            {
                inserted = false;
                return &cell;
            }
            if (cell.isZero())
            {
                cell.setKey(key, hash);
                inserted = true;
                return &cell;
            }
            slot = (slot + 1) & mask;
        }
    }

    Cell* firstInArray(Cell* from)
    {
        Cell* end = cells_ + grower_.capacity();
        while (from != end && from->isZero())
        {
            ++from;
        }
        return from;
    }

    Cell* findInArray(const Key& key, uint64_t hash)
    {
        Cell* const cells = cells_;
        const size_t mask = grower_.mask();
        size_t slot = hash & mask;
        while (true)
        {
            Cell& cell = cells[slot];
            if (cell.keyEquals(key, hash))
            {
                return &cell;
            }
            if (cell.isZero())
            {
                return nullptr;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// All-empty cells for a table of the initial size that has not allocated yet: readers
    /// (find, iteration) see an empty table, writers allocate first. Zero-initialised static
    /// storage costs nothing until touched.
    static Cell* sharedEmptyCells()
    {
        alignas(Cell) static char empty[(size_t{1} << Grower::kInitialSizeDegree) * sizeof(Cell)]{};
        return reinterpret_cast<Cell*>(empty);
    }

    void allocateIfShared()
    {
        if (cells_ == sharedEmptyCells()) [[unlikely]]
        {
            allocateBuffer();
        }
    }

    void allocateBuffer()
    {
        cells_ = static_cast<Cell*>(AllocatorType::allocate(grower_.capacity() * sizeof(Cell)));
    }

    /// Returns to the shared empty array (the grower must be reset by the caller).
    void freeBuffer()
    {
        if (cells_ != nullptr && cells_ != sharedEmptyCells())
        {
            AllocatorType::deallocate(cells_, grower_.capacity() * sizeof(Cell));
        }
        cells_ = sharedEmptyCells();
    }

    void grow()
    {
        Grower target = grower_;
        target.increaseSize();
        rehashInto(target);
    }

    /// Moves every array cell into a fresh array of the target size. Keys are known distinct,
    /// so each goes to the first empty slot of its probe sequence without comparisons.
    void rehashInto(const Grower& target)
    {
        // Allocate first: if the allocation throws (memory limit), the table is unchanged.
        Cell* new_cells =
            static_cast<Cell*>(AllocatorType::allocate(target.capacity() * sizeof(Cell)));
        Cell* old_cells = cells_;
        const size_t old_capacity = grower_.capacity();
        const bool old_is_shared = old_cells == sharedEmptyCells();
        cells_ = new_cells;
        grower_ = target;
        ++grow_count_;
        for (Cell *cell = old_cells, *end = old_cells + old_capacity; cell != end; ++cell)
        {
            if (cell->isZero())
            {
                continue;
            }
            size_t slot = cell->hash(hasher()) & grower_.mask();
            while (!cells_[slot].isZero())
            {
                slot = (slot + 1) & grower_.mask();
            }
            cells_[slot] = *cell;
        }
        if (!old_is_shared)
        {
            AllocatorType::deallocate(old_cells, old_capacity * sizeof(Cell));
        }
    }

    Cell* cells_ = sharedEmptyCells();
    size_t element_count_ = 0;  ///< Elements in the array (the zero key not included).
    size_t grow_count_ = 0;
    Grower grower_;
    bool has_zero_ = false;
    Cell zero_cell_{};
};

}  // namespace granary
