#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alloc/arena.h"
#include "alloc/tracked_allocator.h"
#include "engine/aggregation/bucket_cardinality.h"
#include "engine/aggregation/routed_cells.h"
#include "engine/columns/column_view.h"
#include "hashtables/batch.h"
#include "hashtables/hash_map.h"
#include "hashtables/merge.h"

namespace granary
{

/// A distinct-set state starts with 4 cells: keyed count(DISTINCT) keeps one set per group,
/// and most groups are small.
inline constexpr size_t kDistinctSetInitialDegree = 2;

/// Set kinds for numeric values: the value's bit pattern widened to 64 bits.
template <typename T>
struct NumberDistinctTraits
{
    using Key = uint64_t;
    using Single = HashSet<uint64_t, IntHash, HashTableGrower<kDistinctSetInitialDegree>>;
    using TwoLevel = TwoLevelHashSet<uint64_t, IntHash>;

    static Key keyAt(const ColumnView& column, size_t row)
    {
        const T value = column.valueAt<T>(row);
        if constexpr (std::is_floating_point_v<T>)
        {
            using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
            return std::bit_cast<Bits>(value);
        }
        else
        {
            return static_cast<uint64_t>(value);
        }
    }
    static std::unique_ptr<TwoLevel> convert(const Single& single)
    {
        return std::make_unique<TwoLevel>(single);
    }
    template <typename Set>
    static void insert(Set& set, Key key, Arena&)
    {
        bool inserted;
        set.emplace(key, inserted);
    }
    template <typename Target, typename Source>
    static void merge(Target& target, const Source& source)
    {
        mergeSets(target, source);
    }
};

/// Set kinds for strings: exact (the bytes, not a hash of them). Long strings are copied on
/// insert into the arena of the task that adds the row (the partial's, or a bucket's when
/// partitioned rows are aggregated: buckets run in parallel); merges reference the source's
/// bytes (its arena lives until the query's result is built).
struct StringDistinctTraits
{
    using Key = std::string_view;
    using Single = StringHashTable<void, HashTableGrower<kDistinctSetInitialDegree>>;
    using TwoLevel = TwoLevelStringHashSet;

    static Key keyAt(const ColumnView& column, size_t row) { return column.stringAt(row); }
    /// The sets have no key arena of their own: every insert names the one to copy into.
    static std::unique_ptr<TwoLevel> convert(const Single& single)
    {
        return std::make_unique<TwoLevel>(single, nullptr);
    }
    template <typename Set>
    static void insert(Set& set, Key key, Arena& arena)
    {
        bool inserted;
        set.emplaceCopyingInto(key, set.hash(key), inserted, &arena);
    }
    /// Merges run on many threads at once: keys are referenced, never copied into an arena.
    template <typename Target, typename Source>
    static void merge(Target& target, const Source& source)
    {
        source.forEach(
            [&](std::string_view key)
            {
                bool inserted;
                target.emplaceReferencing(key, target.hash(key), inserted);
            });
    }
};

/// The state of uniqExact / count(DISTINCT): a single-level hash set that converts itself to
/// a two-level one (256 buckets) past a size threshold, so that large sets from many threads
/// can be merged bucket by bucket in parallel.
template <typename Traits>
class DistinctSet
{
public:
    using Key = typename Traits::Key;
    using Single = typename Traits::Single;
    using TwoLevel = typename Traits::TwoLevel;
    /// Numeric values can be routed (below); strings would need their bytes copied.
    static constexpr bool kCanRoute = std::is_same_v<Key, uint64_t>;

    /// Adds `key`; a string key's bytes are copied into `arena` if new.
    void insert(Key key, size_t two_level_threshold, Arena& arena)
    {
        if (two_level_)
        {
            Traits::insert(*two_level_, key, arena);
            return;
        }
        Traits::insert(single_, key, arena);
        if (single_.size() > two_level_threshold)
        {
            convertToTwoLevel();
        }
    }

    /// Adds keys[0..count) as insert() does each, hashing them a batch ahead and prefetching
    /// their slots (emplaceBatch): a set past the caches pays a miss per new key otherwise.
    void insertMany(const Key* keys, size_t count, size_t two_level_threshold, Arena& arena)
    {
        if (two_level_)
        {
            emplaceAll(*two_level_, keys, count, arena);
            return;
        }
        emplaceAll(single_, keys, count, arena);
        if (single_.size() > two_level_threshold)
        {
            convertToTwoLevel();
        }
    }

    bool isTwoLevel() const { return two_level_ != nullptr; }
    size_t size() const { return two_level_ ? two_level_->size() : single_.size(); }

    /// Calls f(value) for every value (none routed: merges insert routed values first).
    template <typename F>
    void forEachValue(F&& f) const
    {
        auto visit = [&](const auto& table)
        {
            if constexpr (requires { table.forEachCell([](const auto&) {}); })
            {
                table.forEachCell([&](const auto& cell) { f(cell.key()); });
            }
            else
            {
                table.forEach([&](Key key) { f(key); });
            }
        };
        if (two_level_)
        {
            visit(*two_level_);
        }
        else
        {
            visit(single_);
        }
    }

    /// Moves every element into a new two-level set and frees the single-level one.
    void convertToTwoLevel()
    {
        if (two_level_)
        {
            return;
        }
        two_level_ = Traits::convert(single_);
        single_ = Single();
    }

    TwoLevel& twoLevel() { return *two_level_; }

    /// Union with `source` on the calling thread.
    void mergeSerially(const DistinctSet& source, size_t two_level_threshold)
    {
        if (source.two_level_ && !two_level_)
        {
            convertToTwoLevel();
        }
        if (two_level_)
        {
            if (source.two_level_)
            {
                Traits::merge(*two_level_, *source.two_level_);
            }
            else
            {
                Traits::merge(*two_level_, source.single_);
            }
            return;
        }
        Traits::merge(single_, source.single_);
        if (single_.size() > two_level_threshold)
        {
            convertToTwoLevel();
        }
    }

    /// Union of bucket `bucket` of two two-level sets: the unit of a parallel merge.
    static void mergeBucket(DistinctSet& target, const DistinctSet& source, size_t bucket)
    {
        Traits::merge(target.two_level_->bucket(bucket), source.two_level_->bucket(bucket));
    }
    static constexpr size_t kBucketCount = TwoLevel::kBucketCount;

    /// Frees the elements (a source after it was merged away); the set stays usable.
    void clear()
    {
        two_level_.reset();
        single_ = Single();
        routed_.reset();
    }

    /// Keeps `key` for the merge phase in the bucket of its hash instead of inserting it: a
    /// two-level set has outgrown the caches, each insert would miss, and every worker's set
    /// would hold most values again. The merge inserts a bucket's routed values into a table a
    /// 256th of the size (insertRouted), as partitioned GROUP BY rows are (docs/aggregation.md).
    void route(Key key) requires kCanRoute
    {
        static_assert(TwoLevel::kBucketShift == BucketCardinality::kBucketShift);
        const uint64_t hash = two_level_->hash(key);
        typename TwoLevel::Cell cell;
        cell.setKey(key, hash);
        routed_->add(cell, hash);
    }
    /// Whether further values are routed (startRouting, routeAllToTwoLevel).
    bool isRouting() const { return routed_ != nullptr; }
    /// Routes every further value: a two-level set keeps the values it holds.
    void startRouting() requires kCanRoute
    {
        if (!two_level_)
        {
            routeAllToTwoLevel();
        }
        else if (!routed_)
        {
            routed_ = std::make_unique<Routed>();
        }
    }
    /// Values routed so far.
    size_t routedCount() const { return routed_ ? routed_->count() : 0; }

    /// Turns a single-level set two-level by routing its values instead of inserting them:
    /// when a merge will insert every value into another set's buckets anyway, building this
    /// set's 256 buckets first is work the merge throws away.
    void routeAllToTwoLevel() requires kCanRoute
    {
        if (two_level_)
        {
            return;
        }
        two_level_ = std::make_unique<TwoLevel>();
        routed_ = std::make_unique<Routed>();
        routed_->addAll(single_, TwoLevel::bucketCounts(single_));
        single_ = Single();
    }

    /// Inserts the values every set of `sets` routed to `bucket` into this two-level set's
    /// bucket, sized first for their estimated distinct count, and frees them. Only that
    /// bucket is touched: buckets may run in parallel.
    void insertRouted(size_t bucket, std::span<DistinctSet* const> sets) requires kCanRoute
    {
        std::vector<Routed*> sources;
        for (DistinctSet* set : sets)
        {
            sources.push_back(set->routed_.get());
        }
        auto& table = two_level_->bucket(bucket);
        Routed::insertBucket(table, bucket, sources,
                             [&](std::span<const typename TwoLevel::Cell> cells)
                             {
                                 for (const auto& cell : cells)
                                 {
                                     bool inserted;
                                     table.emplace(cell.key(), inserted);
                                 }
                             });
    }

private:
    template <typename Table>
    static void emplaceAll(Table& table, const Key* keys, size_t count, Arena& arena)
    {
        const auto ignore = [](auto*, bool, size_t) {};
        if constexpr (std::is_same_v<Key, std::string_view>)
        {
            CopyingKeysInto<Table> copying{table, &arena};
            emplaceBatch(copying, keys, count, ignore);
        }
        else
        {
            emplaceBatch(table, keys, count, ignore);
        }
    }

    using Routed = RoutedCellsFor<TwoLevel, kCanRoute>;

    Single single_;
    std::unique_ptr<TwoLevel> two_level_;
    std::unique_ptr<Routed> routed_;
};

}  // namespace granary
