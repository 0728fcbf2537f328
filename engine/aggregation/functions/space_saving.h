#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "alloc/tracked_allocator.h"
#include "engine/aggregation/state_bytes.h"
#include "hashtables/hash.h"

namespace granary
{

/// The Space-Saving heavy-hitters summary (Metwally, Agrawal and El Abbadi, 2005), the state
/// of topK: at most `capacity` counters of (value, count, error). A value seen is counted in
/// its counter; a new value takes over the counter with the smallest count c, starting at
/// c + 1 with error c. Every count over-estimates its value's frequency by at most its error,
/// and the error of any counter is at most n / capacity for n values summarized, so every
/// value more frequent than that has a counter. Merging two summaries adds the counts of
/// shared values, charges a value missing on one side that side's smallest count (the most
/// it can have missed when full), and keeps the `capacity` largest (the parallel Space-Saving
/// merge of Cafaro, Pulimeno and Tempesta): the bound holds for the union.
///
/// `Value` is a number type or std::string_view; strings are owned by their counter. Counters
/// stay in `slots_` (never reallocated once reserved, so the map's string views stay valid);
/// `order_` lists them by count, largest first, so the smallest is the last (see increment
/// for how a counter moves up).
template <typename Value>
class SpaceSaving
{
    /// addMany counts a batch exactly first when it has at least this many values per
    /// counter: below, the merge (a sort of the counters) costs more than it saves.
    static constexpr size_t kBatchCountersPerCounter = 4;

    static constexpr bool kStrings = std::is_same_v<Value, std::string_view>;
    using OwnedString = std::basic_string<char, std::char_traits<char>, TrackedAllocator<char>>;
    using Stored = std::conditional_t<kStrings, OwnedString, Value>;

public:
    explicit SpaceSaving(uint32_t capacity) : capacity_(capacity) {}
    SpaceSaving(SpaceSaving&&) noexcept = default;
    SpaceSaving& operator=(SpaceSaving&&) noexcept = default;

    uint32_t capacity() const { return capacity_; }
    size_t size() const { return order_.size(); }

    void add(Value value)
    {
        if (const auto found = index_.find(value); found != index_.end())
        {
            increment(found->second);
            return;
        }
        if (order_.size() < capacity_)
        {
            insert(value);
            return;
        }
        // The smallest counter changes hands: its count is the most the new value can have
        // been seen before without a counter.
        const uint32_t slot = order_.back();
        Counter& counter = slots_[slot];
        index_.erase(lookupOf(counter.value));
        counter.value = Stored(value);
        index_.emplace(lookupOf(counter.value), slot);
        counter.error = counter.count;
        increment(slot);
    }

    void merge(const SpaceSaving& other)
    {
        std::vector<Entry> others;
        others.reserve(other.order_.size());
        for (const uint32_t slot : other.order_)
        {
            const Counter& counter = other.slots_[slot];
            others.push_back({lookupOf(counter.value), counter.count, counter.error});
        }
        mergeEntries(std::move(others), other.floor());
    }

    /// Adds `count` values, value_at(i) for i < count, counted exactly first and then merged
    /// as a summary that holds every one of them (so the bound holds): one hash update per
    /// value and one merge per batch instead of a counter update per value. Batches much
    /// smaller than the summary go value by value.
    template <typename ValueAt>
    void addMany(size_t count, ValueAt&& value_at)
    {
        if (count < kBatchCountersPerCounter * capacity_)
        {
            for (size_t i = 0; i < count; ++i)
            {
                add(value_at(i));
            }
            return;
        }
        // Runs of one value (sorted columns, the empty strings of a sparse one) are counted
        // before they are hashed.
        absl::flat_hash_map<Value, uint64_t, KeyHash, KeyEqual> counts;
        Value run_value = value_at(0);
        uint64_t run = 0;
        for (size_t i = 0; i < count; ++i)
        {
            const Value value = value_at(i);
            if (!KeyEqual{}(value, run_value))
            {
                counts[run_value] += run;
                run_value = value;
                run = 0;
            }
            ++run;
        }
        counts[run_value] += run;
        std::vector<Entry> exact;
        exact.reserve(counts.size());
        for (const auto& [value, seen] : counts)
        {
            exact.push_back({value, seen, 0});
        }
        mergeEntries(std::move(exact), 0);
    }

    /// The values of the `count` largest counters, largest first; equal counts by value, so
    /// that the answer does not depend on how the rows were split among threads.
    template <typename Visit>
    void forEachTop(size_t count, Visit&& visit) const
    {
        std::vector<uint32_t> top(order_.begin(), order_.end());
        const auto end = top.begin() + static_cast<ptrdiff_t>(std::min(count, top.size()));
        std::partial_sort(top.begin(), end, top.end(),
                          [&](uint32_t a, uint32_t b)
                          {
                              const Counter& left = slots_[a];
                              const Counter& right = slots_[b];
                              return left.count != right.count
                                         ? left.count > right.count
                                         : valueLess(lookupOf(left.value), lookupOf(right.value));
                          });
        for (auto slot = top.begin(); slot != end; ++slot)
        {
            visit(lookupOf(slots_[*slot].value));
        }
    }

    /// The capacity, the counter count, then each counter (value, count, error) largest first.
    void serialize(std::string& out) const
    {
        appendStateValue(out, capacity_);
        appendStateValue(out, static_cast<uint32_t>(order_.size()));
        for (const uint32_t slot : order_)
        {
            const Counter& counter = slots_[slot];
            if constexpr (kStrings)
            {
                appendStateString(out, counter.value);
            }
            else
            {
                appendStateValue(out, counter.value);
            }
            appendStateValue(out, counter.count);
            appendStateValue(out, counter.error);
        }
    }

    /// Reads what serialize() wrote; `capacity` is the reading function's, which the state
    /// must match (a summary of another size answers another question).
    static SpaceSaving read(StateReader& reader, uint32_t capacity)
    {
        if (const auto stored = reader.read<uint32_t>(); stored != capacity)
        {
            reader.fail("capacity " + std::to_string(stored) + ", expected " +
                        std::to_string(capacity));
        }
        const auto counters = reader.read<uint32_t>();
        if (counters > capacity)
        {
            reader.fail(std::to_string(counters) + " counters in a summary of " +
                        std::to_string(capacity));
        }
        std::vector<Entry> entries;
        entries.reserve(counters);
        for (uint32_t i = 0; i < counters; ++i)
        {
            Entry entry;
            if constexpr (kStrings)
            {
                entry.value = reader.readString();
            }
            else
            {
                entry.value = reader.read<Value>();
            }
            entry.count = reader.read<uint64_t>();
            entry.error = reader.read<uint64_t>();
            if (entry.error >= entry.count)
            {
                reader.fail("a counter's error " + std::to_string(entry.error) +
                            " is not below its count " + std::to_string(entry.count));
            }
            entries.push_back(entry);
        }
        SpaceSaving summary(capacity);
        if (!summary.rebuild(std::move(entries)))
        {
            reader.fail("a value has two counters");
        }
        return summary;
    }

private:
    struct Counter
    {
        Stored value;
        uint64_t count = 0;
        uint64_t error = 0;
    };
    /// A counter as merge and read see it: the value a view of one that outlives the entry.
    struct Entry
    {
        Value value{};
        uint64_t count = 0;
        uint64_t error = 0;
    };

    static Value lookupOf(const Stored& value)
    {
        if constexpr (kStrings)
        {
            return std::string_view(value);
        }
        else
        {
            return value;
        }
    }

    /// A total order of values: NaN after every other float.
    static bool valueLess(Value a, Value b)
    {
        if constexpr (std::is_floating_point_v<Value>)
        {
            if (a != a || b != b)
            {
                return b != b && a == a;
            }
        }
        return a < b;
    }

    /// The count a value without a counter may have: the smallest count when every counter
    /// is taken, otherwise 0 (every value seen has one).
    uint64_t floor() const { return order_.size() < capacity_ ? 0 : slots_[order_.back()].count; }

    /// Folds the counters `others` of another summary, whose values had at most `other_floor`
    /// rows each when it has no counter for them: shared values add their counts; a value on
    /// one side only is charged the other side's floor; the `capacity_` largest stay (Cafaro
    /// et al.'s parallel Space-Saving merge: the sum of the kept counts stays within the rows
    /// summarized, so the error bound holds for the union). `others` view values that outlive
    /// the call.
    void mergeEntries(std::vector<Entry> others, uint64_t other_floor)
    {
        if (others.empty())
        {
            return;
        }
        const uint64_t own_floor = floor();
        std::vector<Entry> merged;
        merged.reserve(order_.size() + others.size());
        for (const uint32_t slot : order_)  // merged[i] is the counter at order_[i]
        {
            const Counter& counter = slots_[slot];
            merged.push_back({lookupOf(counter.value), counter.count + other_floor,
                              counter.error + other_floor});
        }
        for (const Entry& other : others)
        {
            if (const auto found = index_.find(other.value); found != index_.end())
            {
                Entry& own = merged[rank_[found->second]];
                own.count += other.count - other_floor;
                own.error += other.error - other_floor;
            }
            else
            {
                merged.push_back({other.value, other.count + own_floor, other.error + own_floor});
            }
        }
        rebuild(std::move(merged));  // Values of two summaries with one counter each: distinct.
    }

    /// A new counter of `value`, counted once.
    void insert(Value value)
    {
        if (slots_.capacity() < capacity_)
        {
            slots_.reserve(capacity_);
        }
        const auto slot = static_cast<uint32_t>(slots_.size());
        slots_.push_back({Stored(value), 0, 0});
        index_.emplace(lookupOf(slots_.back().value), slot);
        order_.push_back(slot);
        rank_.push_back(static_cast<uint32_t>(order_.size() - 1));
        increment(slot);
    }

    /// Counts the value in `slot` once more. Its counter moves ahead of those whose count it
    /// now exceeds, all equal to its old count (the order is by count): it trades places with
    /// the first of them, found by galloping back from its place and then binary search, so
    /// that a run of equal counts (the counters of rare values) costs O(log run), not its
    /// length, and a counter already ahead of its neighbour costs one comparison.
    void increment(uint32_t slot)
    {
        const uint64_t count = ++slots_[slot].count;
        const uint32_t position = rank_[slot];
        const auto behind = [&](uint32_t at) { return slots_[order_[at]].count < count; };
        uint32_t low = position;  // order_[low, position) all count below `count`
        uint32_t step = 1;
        while (low > 0 && behind(low - 1))
        {
            const uint32_t probe = low > step ? low - step : 0;
            if (!behind(probe))
            {
                // The first counter behind lies in (probe, low - 1].
                low = static_cast<uint32_t>(
                    std::partition_point(order_.begin() + probe + 1, order_.begin() + low - 1,
                                         [&](uint32_t ahead)
                                         { return slots_[ahead].count >= count; }) -
                    order_.begin());
                break;
            }
            low = probe;
            step *= 2;
        }
        const uint32_t target = low;
        if (target != position)
        {
            const uint32_t passed = order_[target];
            order_[position] = passed;
            rank_[passed] = position;
            order_[target] = slot;
            rank_[slot] = target;
        }
    }

    /// Replaces the counters by the `capacity_` largest of `entries` (views of values that
    /// outlive the call: copied here before anything they point into is freed). False, leaving
    /// the summary unusable, when two entries hold one value.
    bool rebuild(std::vector<Entry> entries)
    {
        std::stable_sort(entries.begin(), entries.end(),
                         [](const Entry& a, const Entry& b) { return a.count > b.count; });
        if (entries.size() > capacity_)
        {
            entries.resize(capacity_);
        }
        Slots slots;
        slots.reserve(capacity_);
        for (const Entry& entry : entries)
        {
            slots.push_back({Stored(entry.value), entry.count, entry.error});
        }
        slots_ = std::move(slots);
        index_.clear();
        order_.clear();
        rank_.clear();
        for (uint32_t slot = 0; slot < slots_.size(); ++slot)
        {
            if (!index_.emplace(lookupOf(slots_[slot].value), slot).second)
            {
                return false;
            }
            order_.push_back(slot);
            rank_.push_back(slot);
        }
        return true;
    }

    /// Granary's hashes (hashtables/hash.h: cheaper than absl's for short strings); floats by
    /// value with every NaN one value and -0 equal to 0, so a NaN finds its counter.
    struct KeyHash
    {
        size_t operator()(Value value) const
        {
            if constexpr (kStrings)
            {
                return hashing::hashString(value);
            }
            else if constexpr (std::is_floating_point_v<Value>)
            {
                if (value != value)
                {
                    return 0;  // Every NaN alike.
                }
                return hashing::hashInt64(
                    std::bit_cast<std::conditional_t<sizeof(Value) == 8, uint64_t, uint32_t>>(
                        value == 0 ? Value(0) : value));
            }
            else
            {
                return hashing::hashInt64(static_cast<uint64_t>(value));
            }
        }
    };
    struct KeyEqual
    {
        bool operator()(Value a, Value b) const
        {
            if constexpr (std::is_floating_point_v<Value>)
            {
                return a == b || (a != a && b != b);
            }
            else
            {
                return a == b;
            }
        }
    };

    using Slots = std::vector<Counter, TrackedAllocator<Counter>>;
    using Positions = std::vector<uint32_t, TrackedAllocator<uint32_t>>;

    uint32_t capacity_;
    Slots slots_;
    absl::flat_hash_map<Value, uint32_t, KeyHash, KeyEqual,
                        TrackedAllocator<std::pair<const Value, uint32_t>>>
        index_;
    Positions order_;  ///< Slots by count, largest first.
    Positions rank_;   ///< Each slot's position in order_.
};

}  // namespace granary
