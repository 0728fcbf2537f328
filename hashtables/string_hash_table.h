#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "alloc/arena.h"
#include "hashtables/cells.h"
#include "hashtables/hash.h"
#include "hashtables/hash_table.h"
#include "hashtables/internal/inline_string_keys.h"
#include "hashtables/merge.h"

namespace granary
{

/// Hash table for string keys, dispatched by length to four sub-tables: 1..8, 9..16 and 17..24
/// bytes stored inline as packed words (no arena copy, compared as words), and everything else
/// (longer, empty, or ending in NUL) as a string_view into an Arena with its saved hash.
/// Every sub-table uses the same hash of the string bytes, so a key lands in the same two-level
/// bucket whatever its length class.
///
/// Keys of new long strings are copied into `key_arena` when one is given; without one the
/// caller guarantees that the key bytes outlive the table (merges that keep partial arenas).
/// Mapped = void gives a set.
template <typename MappedType, typename Grower = HashTableGrower<>>
class StringHashTable
{
public:
    using Mapped = MappedType;
    using Key = std::string_view;
    static constexpr bool kIsSet = std::is_void_v<Mapped>;
    using MappedPointer = std::conditional_t<kIsSet, void*, Mapped*>;

    template <typename SubKey, typename SubHash, bool SaveHash>
    using SubTableOf = HashTable<CellFor_t<SubKey, Mapped, SubHash, SaveHash>, SubHash, Grower>;
    using Table8 = SubTableOf<internal::InlineStringKey8, internal::InlineStringHash, false>;
    using Table16 = SubTableOf<internal::InlineStringKey16, internal::InlineStringHash, false>;
    using Table24 = SubTableOf<internal::InlineStringKey24, internal::InlineStringHash, false>;
    using TableLong = SubTableOf<std::string_view, StringHash, true>;
    using SubTables = std::tuple<Table8, Table16, Table24, TableLong>;
    static constexpr size_t kSubTableCount = std::tuple_size_v<SubTables>;
    static constexpr size_t kLongIndex = 3;

    explicit StringHashTable(Arena* key_arena = nullptr) : key_arena_(key_arena) {}

    static uint64_t hash(std::string_view key) { return hashing::hashString(key); }

    /// Inserts `key` if absent (`hash` must be hash(key)); returns its mapped value (nullptr for
    /// sets).
    MappedPointer emplace(std::string_view key, uint64_t hash, bool& inserted)
    {
        return emplaceCopyingInto(key, hash, inserted, key_arena_);
    }

    /// Like emplace, but a new long key keeps pointing at the caller's bytes, which must
    /// outlive the table. Merges on several threads use it: they must not share an arena.
    MappedPointer emplaceReferencing(std::string_view key, uint64_t hash, bool& inserted)
    {
        return emplaceCopyingInto(key, hash, inserted, nullptr);
    }
    MappedPointer emplace(std::string_view key, bool& inserted)
    {
        return emplace(key, hash(key), inserted);
    }

    /// The mapped value of `key` (a non-null dummy for sets), or nullptr when absent.
    MappedPointer find(std::string_view key)
    {
        const uint64_t key_hash = hash(key);
        return dispatch(key,
                        [&]<size_t Index>(auto& table, const auto& sub_key) -> MappedPointer
                        {
                            auto* cell = table.find(sub_key, key_hash);
                            return cell == nullptr ? nullptr : mappedOf(cell);
                        });
    }
    bool contains(std::string_view key) const
    {
        return const_cast<StringHashTable*>(this)->find(key) != nullptr;
    }

    void prefetch(std::string_view key, uint64_t hash) const
    {
        const_cast<StringHashTable*>(this)->dispatch(
            key,
            [&]<size_t Index>(auto& table, const auto&) -> MappedPointer
            {
                table.prefetch(hash);
                return nullptr;
            });
    }

    /// Calls f(key) for sets, f(key, mapped) for maps. Inline keys are views into the cells.
    template <typename F>
    void forEach(F&& f)
    {
        forEachSubTable([&]<size_t Index>(auto& table)
                        { table.forEachCell([&](auto& cell) { visit<Index>(cell, f); }); });
    }
    template <typename F>
    void forEach(F&& f) const
    {
        const_cast<StringHashTable*>(this)->forEach(std::forward<F>(f));
    }

    /// Calls f.template operator()<Index>(sub_table) for each sub-table.
    template <typename F>
    void forEachSubTable(F&& f)
    {
        forEachIndex([&]<size_t Index>()
                     { f.template operator()<Index>(std::get<Index>(tables_)); });
    }
    template <typename F>
    void forEachSubTable(F&& f) const
    {
        forEachIndex([&]<size_t Index>()
                     { f.template operator()<Index>(std::get<Index>(tables_)); });
    }

    template <size_t Index>
    auto& subTable()
    {
        return std::get<Index>(tables_);
    }
    template <size_t Index>
    const auto& subTable() const
    {
        return std::get<Index>(tables_);
    }

    /// Union with `source`; for keys in both, merge_mapped(target_mapped, source_mapped).
    /// New long keys are copied into `copy_keys_into` when given; otherwise they keep pointing
    /// into the source's memory, which must then outlive this table. Parallel bucket merges
    /// pass nullptr: they must not share one arena between threads.
    template <typename MergeMapped>
    void merge(const StringHashTable& source, MergeMapped&& merge_mapped,
               Arena* copy_keys_into = nullptr)
    {
        forEachSubTable(
            [&]<size_t Index>(auto& table)
            {
                mergeTables(table, source.template subTable<Index>(), merge_mapped,
                            [&](auto& cell) { copyLongKey<Index>(cell, copy_keys_into); });
            });
    }

    size_t size() const
    {
        size_t total = 0;
        forEachSubTable([&]<size_t Index>(const auto& table) { total += table.size(); });
        return total;
    }
    bool empty() const { return size() == 0; }
    /// Keys held in the long sub-table: compared through their bytes in an arena, not inline.
    size_t longKeyCount() const { return std::get<kLongIndex>(tables_).size(); }
    /// Makes room for `element_count` keys in total, shared among the sub-tables as the keys
    /// held so far are (the length classes of keys yet to come are unknown; an empty table
    /// reserves nothing).
    void reserve(size_t element_count)
    {
        const size_t held = size();
        if (held == 0 || element_count <= held)
        {
            return;
        }
        forEachSubTable([&]<size_t Index>(auto& table)
                        { table.reserve(table.size() * element_count / held); });
    }
    size_t bufferBytes() const
    {
        size_t total = 0;
        forEachSubTable([&]<size_t Index>(const auto& table) { total += table.bufferBytes(); });
        return total;
    }
    /// Whether the cell arrays have outgrown the caches (HashTable::prefetchWorthwhile).
    bool prefetchWorthwhile() const { return bufferBytes() >= TableLong::kPrefetchMinBytes; }
    /// Times the sub-tables' cell arrays were reallocated (growth or reservation).
    size_t growCount() const
    {
        size_t total = 0;
        forEachSubTable([&]<size_t Index>(const auto& table) { total += table.growCount(); });
        return total;
    }

    Arena* keyArena() const { return key_arena_; }

    /// Copies the key of a long-string cell into `arena` (if given); inline keys need nothing.
    template <size_t Index, typename Cell>
    static void copyLongKey(Cell& cell, Arena* arena)
    {
        if constexpr (Index == kLongIndex)
        {
            if (arena != nullptr && !cell.key().empty())
            {
                cell.setKey(arena->insert(cell.key()), cell.saved_hash_);
            }
        }
    }

    /// Calls f(key) or f(key, mapped) for one cell of sub-table `Index`.
    template <size_t Index, typename Cell, typename F>
    static void visit(Cell& cell, F& f)
    {
        std::string_view key;
        if constexpr (Index == kLongIndex)
        {
            key = cell.key();
        }
        else
        {
            key = cell.key().view();
        }
        if constexpr (kIsSet)
        {
            f(key);
        }
        else
        {
            f(key, cell.mapped());
        }
    }

    /// Like emplace, copying a new long key into `arena` (null: referencing the caller's bytes)
    /// instead of the table's own: a state's set filled from tasks with arenas of their own.
    MappedPointer emplaceCopyingInto(std::string_view key, uint64_t hash, bool& inserted,
                                     Arena* arena)
    {
        return dispatch(key,
                        [&]<size_t Index>(auto& table, const auto& sub_key) -> MappedPointer
                        {
                            auto* cell = table.emplace(sub_key, hash, inserted);
                            if (inserted)
                            {
                                copyLongKey<Index>(*cell, arena);
                            }
                            return mappedOf(cell);
                        });
    }

private:
    template <typename F>
    static void forEachIndex(F&& f)
    {
        [&]<size_t... Indices>(std::index_sequence<Indices...>)
        {
            (f.template operator()<Indices>(), ...);
        }
        (std::make_index_sequence<kSubTableCount>());
    }

    template <typename Cell>
    static MappedPointer mappedOf(Cell* cell)
    {
        if constexpr (kIsSet)
        {
            return cell;
        }
        else
        {
            return &cell->mapped();
        }
    }

    /// Routes `key` to its sub-table: calls f.template operator()<Index>(table, sub_key).
    template <typename F>
    MappedPointer dispatch(std::string_view key, F&& f)
    {
        const size_t length = key.size();
        if (length == 0 || length > internal::kMaxInlineStringBytes || key.back() == '\0')
        {
            return f.template operator()<kLongIndex>(std::get<kLongIndex>(tables_), key);
        }
        if (length <= 8)
        {
            return f.template operator()<0>(std::get<0>(tables_),
                                            internal::packInlineString<1>(key));
        }
        if (length <= 16)
        {
            return f.template operator()<1>(std::get<1>(tables_),
                                            internal::packInlineString<2>(key));
        }
        return f.template operator()<2>(std::get<2>(tables_), internal::packInlineString<3>(key));
    }

    SubTables tables_;
    Arena* key_arena_;
};

/// Two-level string table: 256 StringHashTables chosen by the top 8 bits of the string hash.
template <typename MappedType, typename Grower = HashTableGrower<>>
class TwoLevelStringHashTable
{
public:
    using Bucket = StringHashTable<MappedType, Grower>;
    using Mapped = MappedType;
    using MappedPointer = typename Bucket::MappedPointer;
    static constexpr size_t kBucketBits = 8;
    static constexpr size_t kBucketCount = size_t{1} << kBucketBits;
    static constexpr size_t kBucketShift = 64 - kBucketBits;

    static size_t bucketOf(uint64_t hash) { return hash >> kBucketShift; }
    static uint64_t hash(std::string_view key) { return Bucket::hash(key); }

    explicit TwoLevelStringHashTable(Arena* key_arena = nullptr)
        : buckets_(makeBuckets(key_arena, std::make_index_sequence<kBucketCount>()))
    {
    }

    /// Conversion from a single-level table, each bucket's sub-tables sized once for the keys
    /// they receive (grown from empty, the 256 x 4 sub-tables of a 100,000-key table rehashed
    /// six times each). Existing long keys keep referencing the memory they are in (usually
    /// `key_arena` itself); keys inserted later are copied into `key_arena`.
    template <typename SourceGrower>
    TwoLevelStringHashTable(const StringHashTable<MappedType, SourceGrower>& source,
                            Arena* key_arena)
        : TwoLevelStringHashTable(key_arena)
    {
        std::vector<uint64_t> hashes;
        source.forEachSubTable(
            [&]<size_t Index>(const auto& table)
            {
                hashes.clear();
                std::array<size_t, kBucketCount> counts{};
                table.forEachCell(
                    [&](const auto& cell)
                    {
                        hashes.push_back(table.cellHash(cell));
                        ++counts[bucketOf(hashes.back())];
                    });
                for (size_t bucket = 0; bucket < kBucketCount; ++bucket)
                {
                    if (counts[bucket] > 0)
                    {
                        buckets_[bucket].template subTable<Index>().reserve(counts[bucket]);
                    }
                }
                const uint64_t* cell_hash = hashes.data();
                table.forEachCell(
                    [&](const auto& cell)
                    {
                        Bucket& target = buckets_[bucketOf(*cell_hash)];
                        bool inserted;
                        auto* copy = target.template subTable<Index>().emplace(
                            cell.key(), *cell_hash++, inserted);
                        *copy = cell;
                    });
            });
    }

    MappedPointer emplace(std::string_view key, uint64_t hash, bool& inserted)
    {
        return buckets_[bucketOf(hash)].emplace(key, hash, inserted);
    }
    MappedPointer emplace(std::string_view key, bool& inserted)
    {
        return emplace(key, hash(key), inserted);
    }
    MappedPointer emplaceReferencing(std::string_view key, uint64_t hash, bool& inserted)
    {
        return buckets_[bucketOf(hash)].emplaceReferencing(key, hash, inserted);
    }
    MappedPointer emplaceCopyingInto(std::string_view key, uint64_t hash, bool& inserted,
                                     Arena* arena)
    {
        return buckets_[bucketOf(hash)].emplaceCopyingInto(key, hash, inserted, arena);
    }
    MappedPointer find(std::string_view key) { return buckets_[bucketOf(hash(key))].find(key); }
    bool contains(std::string_view key) const
    {
        return buckets_[bucketOf(hash(key))].contains(key);
    }
    void prefetch(std::string_view key, uint64_t hash) const
    {
        buckets_[bucketOf(hash)].prefetch(key, hash);
    }

    Bucket& bucket(size_t index) { return buckets_[index]; }
    const Bucket& bucket(size_t index) const { return buckets_[index]; }

    template <typename F>
    void forEach(F&& f)
    {
        for (Bucket& bucket : buckets_)
        {
            bucket.forEach(f);
        }
    }
    template <typename F>
    void forEach(F&& f) const
    {
        for (const Bucket& bucket : buckets_)
        {
            bucket.forEach(f);
        }
    }

    size_t size() const
    {
        size_t total = 0;
        for (const Bucket& bucket : buckets_)
        {
            total += bucket.size();
        }
        return total;
    }
    bool empty() const { return size() == 0; }
    size_t bufferBytes() const
    {
        size_t total = 0;
        for (const Bucket& bucket : buckets_)
        {
            total += bucket.bufferBytes();
        }
        return total;
    }
    size_t growCount() const
    {
        size_t total = 0;
        for (const Bucket& bucket : buckets_)
        {
            total += bucket.growCount();
        }
        return total;
    }

private:
    template <size_t... Indices>
    static std::array<Bucket, kBucketCount> makeBuckets(Arena* arena,
                                                        std::index_sequence<Indices...>)
    {
        return {((void)Indices, Bucket(arena))...};
    }

    std::array<Bucket, kBucketCount> buckets_;
};

/// A string table as emplaceBatch sees it, with new long keys copied into `arena` instead of
/// the table's own: tasks that fill different buckets of one two-level table at once (the
/// bucket tasks of partitioned aggregation) each copy into an arena of their own.
template <typename Table>
struct CopyingKeysInto
{
    Table& table;
    Arena* arena;

    static uint64_t hash(std::string_view key) { return Table::hash(key); }
    void prefetch(std::string_view key, uint64_t hash) const { table.prefetch(key, hash); }
    auto emplace(std::string_view key, uint64_t hash, bool& inserted)
    {
        return table.emplaceCopyingInto(key, hash, inserted, arena);
    }
};

}  // namespace granary
