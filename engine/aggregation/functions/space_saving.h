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

#include "alloc/arena.h"
#include "alloc/tracked_allocator.h"
#include "engine/aggregation/state_bytes.h"
#include "hashtables/hash.h"

namespace granary
{

/// The Space-Saving heavy-hitters summary (Metwally, Agrawal and El Abbadi, 2005), the state
/// of topK: at most `capacity` counters of (value, count, error). Every count over-estimates
/// its value's frequency by at most its error, and the error of any counter is at most
/// n / capacity for n values summarized, so every value more frequent than that has a
/// counter. Merging two summaries adds the counts of shared values, charges a value missing on
/// one side that side's smallest count (the most it can have missed when full), and keeps the
/// `capacity` largest (the parallel Space-Saving merge of Cafaro, Pulimeno and Tempesta): the
/// bound holds for the union.
///
/// Values added are counted exactly in a window and folded in by that merge (an exact count is
/// a summary with error 0) once it holds more than kWindowPerCounter * capacity values and at
/// least kMinWindow (checked after each value or batch) and whenever the summary is read: one hash
/// update per value instead of a counter taken over and reordered, and a group with few distinct
/// values is counted exactly.
///
/// `Value` is a number type or std::string_view; strings are owned by their counter or by the
/// window's arena.
template <typename Value>
class SpaceSaving
{
    /// The exact window folds when it holds more than this many values per counter, and not
    /// before it holds kMinWindow: a fold sorts the counters and the window and copies the
    /// strings kept, so a window of several counters' worth amortizes it, and small summaries
    /// (topK(5): 15 counters) would otherwise fold every few dozen values.
    static constexpr size_t kWindowPerCounter = 4;
    static constexpr size_t kMinWindow = 256;

    static constexpr bool kStrings = std::is_same_v<Value, std::string_view>;
    using OwnedString = std::basic_string<char, std::char_traits<char>, TrackedAllocator<char>>;
    using Stored = std::conditional_t<kStrings, OwnedString, Value>;
    /// The window's strings live in an arena of their own, dropped at each fold: one bump
    /// per new string instead of an allocation. Numbers need none.
    struct NoStrings
    {
    };
    using WindowStrings = std::conditional_t<kStrings, Arena, NoStrings>;
    /// A small first chunk: a GROUP BY may hold a summary per group.
    static constexpr size_t kWindowStringsFirstChunk = 256;
    static constexpr size_t kWindowStringsMaxChunk = 1 << 20;

public:
    explicit SpaceSaving(uint32_t capacity)
        : capacity_(capacity), window_strings_(newWindowStrings())
    {
    }
    SpaceSaving(SpaceSaving&&) noexcept = default;
    SpaceSaving& operator=(SpaceSaving&&) noexcept = default;

    uint32_t capacity() const { return capacity_; }

    void add(Value value)
    {
        countInWindow(value, 1);
        foldFullWindow();
    }

    /// Adds `count` values, value_at(i) for i < count; runs of one value (sorted columns, the
    /// empty strings of a sparse one) are counted before they are hashed. The window folds
    /// once, after the batch, however many values it took: one state per thread takes whole
    /// morsels, and a fold per morsel costs what sorting its distinct values does.
    template <typename ValueAt>
    void addMany(size_t count, ValueAt&& value_at)
    {
        if (count == 0)
        {
            return;
        }
        Value run_value = value_at(0);
        uint64_t run = 0;
        for (size_t i = 0; i < count; ++i)
        {
            const Value value = value_at(i);
            if (!KeyEqual{}(value, run_value))
            {
                countInWindow(run_value, run);
                run_value = value;
                run = 0;
            }
            ++run;
        }
        countInWindow(run_value, run);
        foldFullWindow();
    }

    void merge(const SpaceSaving& other)
    {
        fold(other.counterEntries(), other.floor());
        for (const auto& [value, count] : other.window_)
        {
            countInWindow(value, count);
        }
        foldFullWindow();
    }

    /// The values of the `count` largest counters, largest first; equal counts by value, so
    /// that the answer does not depend on how the rows were split among threads.
    template <typename Visit>
    void forEachTop(size_t count, Visit&& visit) const
    {
        std::vector<Entry> top = settledEntries();
        const auto end = top.begin() + static_cast<ptrdiff_t>(std::min(count, top.size()));
        std::partial_sort(top.begin(), end, top.end(), before);
        for (auto entry = top.begin(); entry != end; ++entry)
        {
            visit(entry->value);
        }
    }

    /// The capacity, the counter count, then each counter (value, count, error) largest first
    /// (the window folded in).
    void serialize(std::string& out) const
    {
        std::vector<Entry> entries = settledEntries();
        std::sort(entries.begin(), entries.end(), before);
        appendStateValue(out, capacity_);
        appendStateValue(out, static_cast<uint32_t>(entries.size()));
        for (const Entry& entry : entries)
        {
            if constexpr (kStrings)
            {
                appendStateString(out, entry.value);
            }
            else
            {
                appendStateValue(out, entry.value);
            }
            appendStateValue(out, entry.count);
            appendStateValue(out, entry.error);
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
    /// A counter as merges see it: the value a view of one that outlives the entry.
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

    /// Counts `value` `count` more times in the exact window.
    void countInWindow(Value value, uint64_t count)
    {
        // One hash per value: the entry (and a string's copy) is made only when absent.
        const auto make_entry = [&](const auto& construct)
        {
            if constexpr (kStrings)
            {
                construct(window_strings_.insert(value), 0);
            }
            else
            {
                construct(value, 0);
            }
        };
        window_.lazy_emplace(value, make_entry)->second += count;
    }

    static WindowStrings newWindowStrings()
    {
        if constexpr (kStrings)
        {
            return Arena(kWindowStringsFirstChunk, kWindowStringsMaxChunk);
        }
        else
        {
            return {};
        }
    }

    void foldFullWindow()
    {
        if (window_.size() > std::max(kWindowPerCounter * capacity_, kMinWindow))
        {
            fold(windowEntries(), 0);
            window_.clear();
            window_strings_ = newWindowStrings();
        }
    }

    /// The count a value without a counter may have: the smallest count when every counter
    /// is taken, otherwise 0 (every value seen has one).
    uint64_t floor() const
    {
        if (slots_.size() < capacity_)
        {
            return 0;
        }
        return std::min_element(slots_.begin(), slots_.end(),
                                [](const Counter& a, const Counter& b)
                                { return a.count < b.count; })
            ->count;
    }

    std::vector<Entry> counterEntries() const
    {
        std::vector<Entry> entries;
        entries.reserve(slots_.size());
        for (const Counter& counter : slots_)
        {
            entries.push_back({lookupOf(counter.value), counter.count, counter.error});
        }
        return entries;
    }

    /// The window as a summary that holds every value it counted (errors 0).
    std::vector<Entry> windowEntries() const
    {
        std::vector<Entry> entries;
        entries.reserve(window_.size());
        for (const auto& [value, count] : window_)
        {
            entries.push_back({value, count, 0});
        }
        return entries;
    }

    /// The counters merged with `others`, the counters of another summary whose values had at
    /// most `other_floor` rows each when it has no counter for them: shared values add their
    /// counts; a value on one side only is charged the other side's floor (Cafaro et al.'s
    /// parallel Space-Saving merge: the sum of the kept counts stays within the rows
    /// summarized, so the error bound holds for the union). Unsorted, not yet cut to the
    /// capacity; views of this summary's values and of `others`'.
    std::vector<Entry> mergedWith(const std::vector<Entry>& others, uint64_t other_floor) const
    {
        const uint64_t own_floor = floor();
        std::vector<Entry> merged;
        merged.reserve(slots_.size() + others.size());
        for (const Counter& counter : slots_)  // merged[i] is slots_[i]
        {
            merged.push_back({lookupOf(counter.value), counter.count + other_floor,
                              counter.error + other_floor});
        }
        for (const Entry& other : others)
        {
            if (const auto found = index_.find(other.value); found != index_.end())
            {
                Entry& own = merged[found->second];
                own.count += other.count - other_floor;
                own.error += other.error - other_floor;
            }
            else
            {
                merged.push_back({other.value, other.count + own_floor, other.error + own_floor});
            }
        }
        return merged;
    }

    /// Folds another summary's counters (see mergedWith) into the counters.
    void fold(const std::vector<Entry>& others, uint64_t other_floor)
    {
        if (!others.empty())
        {
            rebuild(mergedWith(others, other_floor));  // One counter per value on each side.
        }
    }

    /// The counters with the window folded in, at most `capacity_`, unsorted: views valid
    /// while the summary is not changed.
    std::vector<Entry> settledEntries() const
    {
        std::vector<Entry> entries =
            window_.empty() ? counterEntries() : mergedWith(windowEntries(), 0);
        keepLargest(entries, capacity_);
        return entries;
    }

    /// Largest count first, equal counts by value: one order whatever the window's hash order.
    static bool before(const Entry& a, const Entry& b)
    {
        return a.count != b.count ? a.count > b.count : valueLess(a.value, b.value);
    }

    /// Keeps the `capacity` first of `entries` in the order of before(), left unsorted: counts
    /// select in linear time, and only the entries tied at the cut compare their values (a
    /// fold of a window of strings mostly counted once would otherwise compare thousands).
    static void keepLargest(std::vector<Entry>& entries, uint32_t capacity)
    {
        if (entries.size() <= capacity)
        {
            return;
        }
        const auto cut_at = entries.begin() + capacity;
        std::nth_element(entries.begin(), cut_at - 1, entries.end(),
                         [](const Entry& a, const Entry& b) { return a.count > b.count; });
        const uint64_t cut = (cut_at - 1)->count;
        const auto tied = std::partition(entries.begin(), entries.end(),
                                         [&](const Entry& e) { return e.count > cut; });
        const auto tied_end =
            std::partition(tied, entries.end(), [&](const Entry& e) { return e.count == cut; });
        std::nth_element(tied, cut_at, tied_end,
                         [](const Entry& a, const Entry& b)
                         { return valueLess(a.value, b.value); });
        entries.resize(capacity);
    }

    /// Replaces the counters by the `capacity_` largest of `entries` (views of values that
    /// outlive the call: copied here before anything they point into is freed). False, leaving
    /// the summary unusable, when two entries hold one value.
    bool rebuild(std::vector<Entry> entries)
    {
        keepLargest(entries, capacity_);
        Slots slots;
        slots.reserve(entries.size());
        for (const Entry& entry : entries)
        {
            slots.push_back({Stored(entry.value), entry.count, entry.error});
        }
        slots_ = std::move(slots);
        index_.clear();
        for (uint32_t slot = 0; slot < slots_.size(); ++slot)
        {
            if (!index_.emplace(lookupOf(slots_[slot].value), slot).second)
            {
                return false;
            }
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

    uint32_t capacity_;
    Slots slots_;  ///< The counters, in no order.
    absl::flat_hash_map<Value, uint32_t, KeyHash, KeyEqual,
                        TrackedAllocator<std::pair<const Value, uint32_t>>>
        index_;  ///< Each counter's value to its slot.
    /// Values counted exactly since the last fold.
    absl::flat_hash_map<Value, uint64_t, KeyHash, KeyEqual,
                        TrackedAllocator<std::pair<const Value, uint64_t>>>
        window_;
    [[no_unique_address]] WindowStrings window_strings_;
};

}  // namespace granary
