#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <new>
#include <span>
#include <string_view>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/distinct_set.h"
#include "engine/aggregation/new_keys_estimate.h"
#include "engine/aggregation/parallel_merge_cost.h"

namespace granary
{

/// Sets' merge costs (bench/aggregation BM_MergePath/distinct, 2 threads): their parallel
/// path costs 11 times the serial work per value, most of it converting each set into 256
/// buckets, plus ~50 values' worth per set and bucket.
inline constexpr ParallelMergeCost kDistinctMergeCost{1'000, 11, 50 * 256};

/// Rows a two-level set inserts at the start of each batch to measure its share of new
/// values before it decides to route the rest (probeForRouting).
inline constexpr size_t kRoutingProbeRows = 4096;

/// Policy knobs of count(DISTINCT) states, from the query's settings.
struct DistinctSettings
{
    /// A set converts itself to two-level past this many elements.
    size_t two_level_threshold = 100'000;
    /// Keyed merges go bucket-parallel when both states are at least this large.
    size_t parallel_state_merge_min_size = 100'000;
    /// Without keys, all-single-level sets merge on one thread unless converting them all and
    /// merging bucket by bucket is estimated faster on the query's workers.
    ParallelMergeCost merge_cost = kDistinctMergeCost;
    /// Without keys, a numeric set that has turned two-level routes further values to its
    /// buckets for the merge phase instead of inserting them, once they are drawn from more
    /// than route_min_values distinct ones. Set by the aggregator from
    /// AggregationSettings::partition_high_cardinality.
    bool route_large_sets = true;
    /// Measured on 1M rows at one thread (`count(DISTINCT WatchID % m)`): inserting beat
    /// routing up to 600K distinct values from 900K (33 vs 37 ms), and lost at 1M from
    /// 1M (47 vs 35 ms): 256 buckets of 8K 8-byte cells, past the 1 MiB L2 many times.
    size_t route_min_values = 1'000'000;
    /// GROUP BY one key with count(DISTINCT x) of a fixed-width x as the only
    /// aggregate, over more than one morsel, routes rows by x and counts distinct pairs per
    /// bucket instead of merging per-key sets (countDistinctByValueBuckets).
    bool count_by_value_buckets = true;
    /// ...also for a String key (set by the aggregator from the input's rows and
    /// AggregationSettings::string_key_value_buckets_rows).
    bool string_key_value_buckets = true;
    /// Without keys, about how many rows each of several workers will be given (0: unknown,
    /// or a sole worker), set by the aggregator; with new_values_sample_rows
    /// (AggregationSettings::partition_new_keys_rows), a numeric set samples its first rows
    /// and routes from then on when its share will be mostly new values.
    size_t worker_share_rows = 0;
    size_t new_values_sample_rows = 0;
};

/// Everything of count(DISTINCT) / uniqExact that does not depend on the value type: the
/// parallel merge plans. Implemented once in uniq_exact.cpp over type-erased callbacks.
class DistinctMergePlanner
{
public:
    /// Merges `sources` into `target` for aggregation without keys: converts single-level
    /// sets to two-level in parallel where that pays, then merges bucket by bucket in
    /// parallel; records the path in the query's stats.
    template <typename Set>
    static void mergeMany(Set& target, std::span<Set* const> sources,
                          const DistinctSettings& settings, MergeContext& context);

    /// Merges one keyed state into another, bucket-parallel when both are large.
    template <typename Set>
    static void mergeOne(Set& target, Set& source, const DistinctSettings& settings,
                         MergeContext& context);
};

template <typename Traits>
class UniqExactFunction final
    : public AggregateFunctionBase<UniqExactFunction<Traits>, DistinctSet<Traits>>
{
    using Set = DistinctSet<Traits>;
    using Base = AggregateFunctionBase<UniqExactFunction<Traits>, Set>;

public:
    explicit UniqExactFunction(DistinctSettings settings) : settings_(settings) {}

    std::string name() const override { return "uniqExact"; }
    DataType resultType() const override { return TypeId::UInt64; }

    void create(char* place, Arena&) const override { new (place) Set(); }

    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override
    {
        for (size_t i = 0; i < count; ++i)
        {
            Base::state(places[i] + state_offset)
                .insert(Traits::keyAt(arguments[0], first_row + i), settings_.two_level_threshold,
                        arena);
        }
    }
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena& arena) const override
    {
        Set& set = Base::state(place);
        const size_t end = first_row + count;
        size_t row = first_row;
        if constexpr (Set::kCanRoute)
        {
            row += sampleForNewValues(set, arguments[0], first_row, count, arena);
            if (routes() && !set.isRouting())
            {
                row = insertRows(set, arguments[0], row, end, arena, kUntilTwoLevel);
                if (set.isTwoLevel())
                {
                    row = probeForRouting(set, arguments[0], row, end, arena);
                }
            }
        }
        if (!set.isRouting())
        {
            insertRows(set, arguments[0], row, end, arena);
            return;
        }
        if constexpr (Set::kCanRoute)
        {
            for (; row < end; ++row)
            {
                set.route(Traits::keyAt(arguments[0], row));
            }
        }
    }

    void merge(char* target, char* source, MergeContext& context) const override
    {
        DistinctMergePlanner::mergeOne(Base::state(target), Base::state(source), settings_,
                                       context);
    }
    void mergeMany(char* target, std::span<char* const> sources,
                   MergeContext& context) const override
    {
        std::vector<Set*> sets;
        sets.reserve(sources.size());
        for (char* source : sources)
        {
            sets.push_back(&Base::state(source));
        }
        DistinctMergePlanner::mergeMany<Set>(Base::state(target), sets, settings_, context);
    }

    bool hasParallelMergeMany() const override { return true; }

    void insertResult(const Set& set, Column& to) const { to.append(uint64_t{set.size()}); }

    /// The values' count, then each value: 64-bit patterns, or strings with their lengths.
    void serialize(const char* place, std::string& out) const override
    {
        const Set& set = *std::launder(reinterpret_cast<const Set*>(place));
        appendStateValue(out, uint64_t{set.size()});
        set.forEachValue([&](const auto& value) { appendValue(out, value); });
    }
    void checkSerialized(std::string_view bytes) const override
    {
        StateReader reader(bytes, name());
        forEachSerializedValue(reader, [](const auto&) {});
    }
    void mergeSerialized(char* place, std::string_view bytes, Arena& arena) const override
    {
        StateReader reader(bytes, name());
        Set& set = Base::state(place);
        forEachSerializedValue(reader, [&](const auto& value)
                               { set.insert(value, settings_.two_level_threshold, arena); });
    }

    /// Unused: merges go through DistinctMergePlanner, adds through the overrides above.
    static void add(Set&, const ColumnView*, size_t, Arena&) {}
    static void mergeStates(Set&, const Set&) {}

private:
    static void appendValue(std::string& out, uint64_t value) { appendStateValue(out, value); }
    static void appendValue(std::string& out, std::string_view value)
    {
        appendStateString(out, value);
    }
    template <typename F>
    static void forEachSerializedValue(StateReader& reader, F&& f)
    {
        const uint64_t count = reader.read<uint64_t>();
        for (uint64_t i = 0; i < count; ++i)
        {
            if constexpr (std::is_same_v<typename Traits::Key, std::string_view>)
            {
                f(reader.readString());
            }
            else
            {
                f(reader.read<uint64_t>());
            }
        }
        reader.expectEnd();
    }

    bool routes() const { return Set::kCanRoute && settings_.route_large_sets; }

    static constexpr bool kUntilTwoLevel = true;

    /// Inserts rows [begin, end) of `values` a hash batch at a time, or up to the batch that
    /// turns the set two-level when `until_two_level`; returns the first row not inserted.
    size_t insertRows(Set& set, const ColumnView& values, size_t begin, size_t end, Arena& arena,
                      bool until_two_level = false) const
    {
        std::array<typename Set::Key, kHashBatchRows> keys;
        size_t row = begin;
        while (row < end && !(until_two_level && set.isTwoLevel()))
        {
            const size_t rows = std::min(kHashBatchRows, end - row);
            for (size_t i = 0; i < rows; ++i)
            {
                keys[i] = Traits::keyAt(values, row + i);
            }
            set.insertMany(keys.data(), rows, settings_.two_level_threshold, arena);
            row += rows;
        }
        return row;
    }

    /// A two-level set routes its further values (DistinctSet::route) only when it is headed
    /// past the caches: it inserts the next kRoutingProbeRows rows (of each call, until it
    /// routes), and starts routing when the share of new values among them says the values
    /// it draws from number more than route_min_values (distinctPopulation). Below that,
    /// inserting into a set that stays cache-resident beat routing every value and inserting
    /// it again in the merge. Returns the first row not inserted.
    size_t probeForRouting(Set& set, const ColumnView& values, size_t begin, size_t end,
                           Arena& arena) const requires Set::kCanRoute
    {
        const size_t probe_end = std::min(end, begin + kRoutingProbeRows);
        const size_t size_before = set.size();
        insertRows(set, values, begin, probe_end, arena);
        if (distinctPopulation(size_before, set.size() - size_before, probe_end - begin) >
            static_cast<double>(settings_.route_min_values))
        {
            set.startRouting();
        }
        return probe_end;
    }

    /// A worker's first rows, inserted as a sample of its share: when they say the share will
    /// be mostly new values (groupsWouldFillHalfTheShare), the set routes them and every
    /// further value to the merge's buckets, as it would past the two-level threshold; each
    /// worker's set would otherwise hold most of its share, for the merge to insert it all
    /// again. Returns the rows inserted (none on later batches, or without a share).
    size_t sampleForNewValues(Set& set, const ColumnView& values, size_t first_row, size_t count,
                              Arena& arena) const requires Set::kCanRoute
    {
        const size_t share = settings_.worker_share_rows;
        if (!routes() || share == 0 || settings_.new_values_sample_rows == 0 || set.size() != 0 ||
            set.isTwoLevel())
        {
            return 0;
        }
        const size_t sample =
            newKeysSampleRows(settings_.new_values_sample_rows, share, kHashBatchRows);
        if (count < sample || !shareLeftWorthPartitioning(share, sample, Set::kBucketCount))
        {
            return 0;
        }
        insertRows(set, values, first_row, first_row + sample, arena);
        if (groupsWouldFillHalfTheShare(set.size(), sample, share))
        {
            set.routeAllToTwoLevel();
        }
        return sample;
    }

    DistinctSettings settings_;
};

}  // namespace granary

#include "engine/aggregation/functions/distinct_merge_planner.h"
