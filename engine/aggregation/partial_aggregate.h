#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "alloc/arena.h"
#include "engine/aggregation/aggregate_layout.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/bucket_cardinality.h"
#include "engine/aggregation/inline_count.h"
#include "engine/aggregation/key_methods.h"
#include "engine/aggregation/key_runs.h"
#include "engine/aggregation/new_keys_estimate.h"
#include "engine/aggregation/partitioned_rows.h"
#include "engine/aggregation/routed_cells.h"
#include "engine/aggregation/state_merge_batch.h"
#include "engine/columns/gather.h"
#include "hashtables/batch.h"

namespace granary
{

/// Rows whose keys are extracted, emplaced and aggregated together: the keys and state
/// pointers of a batch stay in L1/L2.
inline constexpr size_t kAggregationBatchRows = 1024;
/// A sole worker aggregates its routed rows once they number this many per distinct key, so
/// that each bucket's table, brought back into the cache, takes many rows per line (4, 8 and
/// 16 measured at 10^6 keys on one thread; 8 was the fastest, docs/aggregation.md).
inline constexpr size_t kRoutedRowsPerKey = 8;

/// The state pointer of an emplace result: a cell (fixed-width tables) or the mapped value
/// itself (string tables).
template <typename Cell>
StatePointer& mappedOf(Cell* cell)
{
    return cell->mapped();
}
inline StatePointer& mappedOf(StatePointer* mapped)
{
    return *mapped;
}

/// Calls f(key, state) for every group of a table of any kind.
template <typename Table, typename F>
void forEachGroup(Table& table, F&& f)
{
    if constexpr (requires { table.forEachCell([](auto&) {}); })
    {
        table.forEachCell([&](auto& cell) { f(cell.key(), cell.mapped()); });
    }
    else
    {
        table.forEach(f);
    }
}

/// Folds the groups of `source` into `target` (same table kind): new keys take over the
/// source's states, existing ones merge them (lone counts add their slots). String keys keep
/// pointing into the source's arena, which lives until the result is built, so no arena is
/// shared between threads.
template <typename Table, typename Source>
void mergeGroups(Table& target, const Source& source, const AggregateLayout& layout,
                 MergeContext& context)
{
    auto merge_with = [&](auto&& merge_states)
    {
        if constexpr (requires { target.merge(source, merge_states, nullptr); })
        {
            target.merge(source, merge_states, nullptr);
        }
        else
        {
            mergeTables(target, source, merge_states);
        }
    };
    if (layout.isLoneCount())
    {
        merge_with([](StatePointer& into, StatePointer from)
                   { into = slotHoldingCount(countInSlot(into) + countInSlot(from)); });
        return;
    }
    // States are merged after the keys (a batch at a time); they do not move meanwhile, as
    // they live in arenas and the table cells hold only pointers to them.
    StateMergeBatch states(layout, context);
    merge_with([&](StatePointer& into, StatePointer from) { states.add(into, from); });
    states.flush();
}

/// One worker's local state in a GROUP BY: its hash table (single-level until it passes the
/// two-level thresholds), its arena of keys and states, and the states it must destroy.
template <typename Method>
class PartialAggregate
{
public:
    using Key = typename Method::Key;
    using Single = typename Method::Single;
    /// Whether a single-level partial can route its groups to the merge's buckets instead of
    /// converting (routeToTwoLevel): fixed-width keys only, as string tables are dispatched by
    /// key length and their long keys live in the partial's arena.
    static constexpr bool kCanRoute =
        Method::kHasTwoLevel && !std::is_same_v<Key, std::string_view>;

    /// `key_columns`: positions of the keys among each morsel's columns.
    PartialAggregate(const AggregateLayout& layout, std::vector<size_t> key_columns,
                     const AggregationSettings& settings)
        : layout_(layout),
          settings_(settings),
          key_columns_(std::move(key_columns)),
          single_(Method::makeSingle(&own_states_.arena)),
          keys_(kAggregationBatchRows),
          places_(kAggregationBatchRows)
    {
    }

    ~PartialAggregate()
    {
        destroyStates(own_states_);
        for (States& states : bucket_states_)
        {
            destroyStates(states);
        }
    }

    PartialAggregate(const PartialAggregate&) = delete;
    PartialAggregate& operator=(const PartialAggregate&) = delete;

    /// Aggregates the `count` rows of a morsel's `columns`, or, once the table is two-level and
    /// partitioning is on, routes them to the buckets that aggregate them after this phase.
    void aggregate(const std::vector<ColumnView>& columns, size_t count)
    {
        typename Method::Extractor extractor(keyViews(columns));
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_ && settings_.partition_high_cardinality)
            {
                partition(extractor, columns, count);
                return;
            }
        }
        for (size_t begin = 0; begin < count; begin += kAggregationBatchRows)
        {
            const size_t rows = std::min(kAggregationBatchRows, count - begin);
            if constexpr (Method::kHasTwoLevel)
            {
                if (two_level_)
                {
                    aggregateOwnBatch(*two_level_, extractor, columns, begin, rows);
                }
                else
                {
                    aggregateOwnBatch(*single_, extractor, columns, begin, rows);
                }
            }
            else
            {
                aggregateOwnBatch(*single_, extractor, columns, begin, rows);
            }
            rows_ += rows;
            convertIfLarge();
            if constexpr (Method::kHasTwoLevel)
            {
                const size_t next = begin + rows;
                if (two_level_ && settings_.partition_high_cardinality && next < count)
                {
                    // The table has just turned two-level: the rest of the morsel is routed
                    // like the morsels after it.
                    std::vector<ColumnView> rest;
                    for (const ColumnView& column : columns)
                    {
                        rest.push_back(column.slice(next, count - next));
                    }
                    aggregate(rest, count - next);
                    return;
                }
            }
        }
    }

    /// Rows this worker routed to buckets instead of aggregating them.
    size_t partitionedRows() const
    {
        return routed_rows_aggregated_ + (partitioned_ ? partitioned_->rows() : 0);
    }
    /// Of those, rows this (sole) worker aggregated itself during the partial phase.
    size_t partitionedRowsAggregated() const { return routed_rows_aggregated_; }

    /// Marks this partial as the query's only worker, which aggregates its routed rows itself
    /// (aggregateRoutedRowsIfMany), calling `check_cancelled` between buckets, and will be
    /// given at most `input_rows` rows.
    void setSoleWorker(std::function<void()> check_cancelled, size_t input_rows)
    {
        sole_worker_check_cancelled_ = std::move(check_cancelled);
        sole_worker_input_rows_ = input_rows;
        sole_worker_groups_bound_ = ProjectedGroupsBound(
            input_rows, 2.0 * static_cast<double>(settings_.sole_worker_single_level_max_groups));
    }

    /// About how many rows this worker (one of several) will be given in all, and all workers
    /// together, as its morsels so far say (a scan's filter passes some of them).
    void expectRows(size_t share_rows, size_t input_rows)
    {
        expected_rows_ = share_rows;
        expected_input_rows_ = input_rows;
    }

    /// Gives each bucket an arena and a list of states of its own, so that the buckets of this
    /// (two-level) partial can take routed rows in parallel, one task per bucket.
    void prepareForPartitionedRows() { bucket_states_.resize(kPartitionBuckets); }

    /// Aggregates every worker's rows routed to `bucket` (all their keys fall in it) into that
    /// bucket's table, then frees them. Only the bucket's own table and states are touched:
    /// buckets may run in parallel. `check` runs before each chunk (cancellation).
    template <typename Check>
    void aggregatePartitioned(size_t bucket, std::span<PartialAggregate* const> workers,
                              Check&& check) requires Method::kHasTwoLevel
    {
        std::vector<const BucketCardinality*> sketches;
        size_t rows = 0;
        for (PartialAggregate* worker : workers)
        {
            if (worker->routed_keys_)
            {
                sketches.push_back(worker->routed_keys_.get());
            }
            if (worker->partitioned_)
            {
                rows += worker->partitioned_->rows(bucket);
            }
        }
        prepareForRoutedRows(bucket, sketches, rows);
        std::vector<Key> keys(kAggregationBatchRows);
        std::vector<StatePointer> places(kAggregationBatchRows);
        for (PartialAggregate* worker : workers)
        {
            if (worker->partitioned_)
            {
                aggregateRoutedRows(bucket, *worker->partitioned_, bucket_states_[bucket],
                                    keys.data(), places.data(), check);
                // Only this bucket's task reads these rows.
                worker->partitioned_->release(bucket);
            }
        }
    }

    bool isTwoLevel() const
    {
        if constexpr (Method::kHasTwoLevel)
        {
            return two_level_ != nullptr;
        }
        return false;
    }

    size_t size() const
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_)
            {
                return two_level_->size();
            }
        }
        return single_->size();
    }

    size_t rows() const { return rows_; }
    Arena& arena() { return own_states_.arena; }

    /// Reallocations of this partial's cell arrays (growth or reservation) so far, those of the
    /// single-level table it converted from included.
    size_t resizes() const
    {
        size_t total = single_ ? resizesOf(*single_) : dropped_single_resizes_;
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_)
            {
                total += resizesOf(*two_level_);
            }
        }
        return total;
    }

    /// What this partial's table holds: its cell arrays and its arena's chunks (keys, states).
    size_t memoryBytes() const
    {
        size_t table_bytes = single_ ? single_->bufferBytes() : 0;
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_)
            {
                table_bytes += two_level_->bufferBytes();
            }
        }
        return table_bytes + own_states_.arena.bytesReserved();
    }
    /// What its partitioned rows hold (not part of memoryBytes: rows, not groups).
    size_t partitionedBytes() const { return partitioned_ ? partitioned_->memoryBytes() : 0; }
    Single& single() { return *single_; }

    void convertToTwoLevel()
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (!two_level_)
            {
                two_level_ = Method::convert(*single_, &own_states_.arena);
                dropSingle();
                ++conversions_;
            }
        }
    }
    size_t conversions() const { return conversions_; }

    /// Turns a single-level partial two-level by routing its groups (key and state slot) to
    /// the buckets of their hashes, its own buckets left empty: the merge inserts every group
    /// into the target's bucket anyway (mergeRouted), so building 256 bucket tables here would
    /// be work, and fresh memory, that the merge throws away.
    void routeToTwoLevel() requires kCanRoute
    {
        if (two_level_)
        {
            return;
        }
        routed_groups_ = std::make_unique<RoutedGroups>();
        routed_groups_->addAll(*single_, Method::TwoLevel::bucketCounts(*single_));
        two_level_ = std::make_unique<typename Method::TwoLevel>();
        dropSingle();
    }
    /// Whether this partial's groups wait in routed cells (its buckets are empty).
    bool routed() const { return routed_groups_ != nullptr; }

    /// Merges the groups every partial of `partials` routed to `bucket` into this partial's
    /// bucket, sized once for their estimated distinct keys, and frees them. Only that bucket
    /// is touched: buckets may run in parallel.
    void mergeRouted(size_t bucket, std::span<PartialAggregate* const> partials,
                     MergeContext& context) requires kCanRoute
    {
        std::vector<RoutedGroups*> sources;
        for (PartialAggregate* partial : partials)
        {
            sources.push_back(partial->routed_groups_.get());
        }
        auto& table = two_level_->bucket(bucket);
        using Table = std::remove_reference_t<decltype(table)>;
        RoutedGroups::insertBucket(
            table, bucket, sources,
            [&](std::span<const typename Table::Cell> cells)
            {
                context.query->checkCancelled();
                mergeGroups(table, RoutedCellsView<typename Table::Cell, Table>{cells, table},
                            layout_, context);
            });
    }

    auto& twoLevel() requires Method::kHasTwoLevel { return *two_level_; }

private:
    /// Where new groups' states come from, and the states to destroy at the end.
    struct States
    {
        Arena arena;
        std::vector<char*> owned;
    };

    /// Drops the single-level table once its groups have moved, keeping its resize count.
    void dropSingle()
    {
        dropped_single_resizes_ = resizesOf(*single_);
        single_.reset();
    }

    /// Direct-mapped tables never reallocate.
    template <typename Table>
    static size_t resizesOf(const Table& table)
    {
        if constexpr (requires { table.growCount(); })
        {
            return table.growCount();
        }
        return 0;
    }

    std::vector<ColumnView> keyViews(const std::vector<ColumnView>& columns) const
    {
        std::vector<ColumnView> keys;
        for (size_t column : key_columns_)
        {
            keys.push_back(columns[column]);
        }
        return keys;
    }

    /// Extracts the keys of rows [begin, begin + rows), emplaces them into `table` (new groups
    /// get states from `states`) and folds the rows into their groups' states.
    template <typename Table>
    void aggregateBatch(Table& table, typename Method::Extractor& extractor,
                        const std::vector<ColumnView>& columns, size_t begin, size_t rows,
                        States& states, Key* scratch, StatePointer* places)
    {
        aggregateKeys(table, extractor.extract(begin, rows, scratch), columns, begin, rows, states,
                      places);
    }

    /// The group's states, created in `states` when the group is new.
    template <typename Result>
    StatePointer stateOf(Result result, bool inserted, States& states)
    {
        StatePointer& state = mappedOf(result);
        if (inserted)
        {
            state = layout_.createStates(states.arena);
            if (layout_.hasNonTrivialDestroy())
            {
                states.owned.push_back(state);
            }
        }
        return state;
    }

    /// Aggregates rows [begin, begin + rows) of `columns`, whose keys are `keys`.
    template <typename Table>
    void aggregateKeys(Table& table, const Key* keys, const std::vector<ColumnView>& columns,
                       size_t begin, size_t rows, States& states, StatePointer* places)
    {
        // A lone count counts each row as its key is found, in the cell itself (no second
        // pass over the batch's state pointers; +20-25% at 10^3 keys on one thread).
        if (layout_.isLoneCount())
        {
            emplaceBatch(table, keys, rows,
                         [&](auto result, bool inserted, size_t)
                         { addToCountSlot(mappedOf(result), inserted, 1); });
            return;
        }
        emplaceBatch(table, keys, rows,
                     [&](auto result, bool inserted, size_t i)
                     { places[i] = stateOf(result, inserted, states); });
        layout_.addBatch(columns.data(), begin, rows, places, states.arena);
    }

    /// A batch of this partial's own rows: keys looked up once per run where they repeat.
    template <typename Table>
    void aggregateOwnBatch(Table& table, typename Method::Extractor& extractor,
                           const std::vector<ColumnView>& columns, size_t begin, size_t rows)
    {
        const Key* keys = extractor.extract(begin, rows, keys_.data());
        if (findRepeatedKeys(keys, rows, kRunLookupMaxRunShare))
        {
            aggregateRuns(table, keys, columns, begin, rows);
        }
        else
        {
            aggregateKeys(table, keys, columns, begin, rows, own_states_, places_.data());
        }
    }

    /// Whether `keys` fall into runs of equal keys that number at most `max_share` of the
    /// rows (then key_runs_ holds them). A partial whose batches keep failing stops looking.
    bool findRepeatedKeys(const Key* keys, size_t rows, double max_share)
    {
        if (run_probes_left_ == 0)
        {
            return false;
        }
        const size_t runs = key_runs_.find(keys, rows);
        if (static_cast<double>(runs) <= max_share * static_cast<double>(rows))
        {
            run_probes_left_ = kRunProbeBatches;
            return true;
        }
        --run_probes_left_;
        return false;
    }

    /// Aggregates a batch of this partial's rows whose runs key_runs_ holds: one lookup per
    /// run, its state pointer then given to each of the run's rows.
    template <typename Table>
    void aggregateRuns(Table& table, const Key* keys, const std::vector<ColumnView>& columns,
                       size_t begin, size_t rows)
    {
        Key* run_keys = keys_.data();
        key_runs_.compactKeys(keys, run_keys);
        const size_t runs = key_runs_.runs();
        if (layout_.isLoneCount())
        {
            emplaceBatch(table, run_keys, runs,
                         [&](auto result, bool inserted, size_t r)
                         { addToCountSlot(mappedOf(result), inserted, key_runs_.length(r)); });
            return;
        }
        StatePointer* places = places_.data();
        emplaceBatch(table, run_keys, runs,
                     [&](auto result, bool inserted, size_t r)
                     { places[r] = stateOf(result, inserted, own_states_); });
        if (rows >= kMinMeanRunLengthForRunAdds * runs)
        {
            layout_.addRuns(columns.data(), begin, key_runs_.starts(), runs, places,
                            own_states_.arena);
            return;
        }
        key_runs_.expand(places);
        layout_.addBatch(columns.data(), begin, rows, places, own_states_.arena);
    }

    /// Routes a morsel's rows to the buckets of their keys' hashes.
    void partition(typename Method::Extractor& extractor, const std::vector<ColumnView>& columns,
                   size_t count)
    {
        static_assert(Method::TwoLevel::kBucketShift == BucketCardinality::kBucketShift);
        if (!partitioned_)
        {
            std::vector<bool> used(columns.size(), false);
            for (size_t column : key_columns_)
            {
                used[column] = true;
            }
            for (const AggregateLayout::Entry& entry : layout_.entries())
            {
                for (size_t column : entry.argument_columns)
                {
                    used[column] = true;
                }
            }
            partitioned_ = std::make_unique<PartitionedRows>(columns, std::move(used));
            routed_keys_ = std::make_unique<BucketCardinality>();
        }
        buckets_.resize(count);
        // Batches whose keys repeat row after row go into the table (a lookup per run, on
        // cells the runs keep in the cache); the rows of the others are routed, in ranges.
        size_t routed_from = 0;
        for (size_t begin = 0; begin < count; begin += kAggregationBatchRows)
        {
            const size_t rows = std::min(kAggregationBatchRows, count - begin);
            const Key* keys = extractor.extract(begin, rows, keys_.data());
            if (findRepeatedKeys(keys, rows, kRoutedRunLookupMaxRunShare))
            {
                routeRows(columns, routed_from, begin);
                if (layout_.isLoneCount())
                {
                    countRunsRoutingSingles(keys, columns, begin);
                }
                else
                {
                    aggregateRuns(*two_level_, keys, columns, begin, rows);
                }
                routed_from = begin + rows;
                continue;
            }
            for (size_t i = 0; i < rows; ++i)
            {
                buckets_[begin + i] = routedBucketOf(keys[i]);
            }
        }
        routeRows(columns, routed_from, count);
        rows_ += count;
        aggregateRoutedRowsIfMany();
    }

    /// A lone count's batch of runs (key_runs_) once rows are routed: runs of two rows or more
    /// are counted in the table, and rows alone in their run are routed. In a batch of '' runs
    /// between distinct phrases (SearchPhrase), each phrase would otherwise be looked up in the
    /// one big table, missing the cache where its bucket's table, later, would not. Other
    /// aggregates would need those rows kept out of the batch's state update.
    void countRunsRoutingSingles(const Key* keys, const std::vector<ColumnView>& columns,
                                 size_t begin)
    {
        Key* run_keys = keys_.data();  // May be `keys`: run i's key goes where no key is unread.
        single_rows_.clear();
        single_buckets_.clear();
        size_t long_runs = 0;
        for (size_t r = 0; r < key_runs_.runs(); ++r)
        {
            const size_t first = key_runs_.start(r);
            if (key_runs_.length(r) == 1)
            {
                single_rows_.push_back(static_cast<uint32_t>(begin + first));
                single_buckets_.push_back(routedBucketOf(keys[first]));
                continue;
            }
            run_lengths_[long_runs] = static_cast<uint32_t>(key_runs_.length(r));
            run_keys[long_runs++] = keys[first];
        }
        emplaceBatch(*two_level_, run_keys, long_runs,
                     [&](auto result, bool inserted, size_t i)
                     { addToCountSlot(mappedOf(result), inserted, run_lengths_[i]); });
        if (single_rows_.empty())
        {
            return;
        }
        // The key columns at the single rows, side by side (a lone count reads nothing else).
        single_columns_.resize(key_columns_.size());
        single_views_.resize(columns.size());
        for (size_t k = 0; k < key_columns_.size(); ++k)
        {
            single_views_[key_columns_[k]] =
                replaceWithRows(columns[key_columns_[k]], single_rows_, single_columns_[k]);
        }
        partitioned_->append(single_views_, single_rows_.size(), single_buckets_.data());
    }

    /// The bucket a routed row of `key` goes to; its hash joins the routed keys' sketch.
    uint8_t routedBucketOf(const Key& key)
    {
        const uint64_t hash = two_level_->hash(key);
        routed_keys_->add(hash);
        return static_cast<uint8_t>(Method::TwoLevel::bucketOf(hash));
    }

    /// Appends rows [first, end) of a morsel, whose buckets buckets_ holds, to the routed rows.
    void routeRows(const std::vector<ColumnView>& columns, size_t first, size_t end)
    {
        if (first == end)
        {
            return;
        }
        if (first == 0 && end == columns.front().rows)
        {
            partitioned_->append(columns, end, buckets_.data());
            return;
        }
        std::vector<ColumnView> range;
        for (const ColumnView& column : columns)
        {
            range.push_back(column.slice(first, end - first));
        }
        partitioned_->append(range, end - first, buckets_.data() + first);
    }

    /// Readies `bucket`'s table, once, before its `rows` routed rows (of one or many workers)
    /// go in: sized for the distinct keys that `sketches` estimated while the rows were routed,
    /// and its cells read into the cache, since it was last used a refill ago or just reserved.
    void prepareForRoutedRows(size_t bucket, std::span<const BucketCardinality* const> sketches,
                              size_t rows)
    {
        auto& table = two_level_->bucket(bucket);
        if constexpr (requires { table.reserve(size_t{}); })
        {
            BucketCardinality::reserve(table, bucket, sketches, rows);
        }
        if constexpr (requires { table.warmCells(); })
        {
            table.warmCells();
        }
    }

    /// Aggregates `source`'s rows of `bucket` into that bucket's table, with new groups'
    /// states in `states`.
    template <typename Check>
    void aggregateRoutedRows(size_t bucket, PartitionedRows& source, States& states, Key* scratch,
                             StatePointer* places, Check&& check)
    {
        auto& table = two_level_->bucket(bucket);
        auto aggregateChunks = [&](auto& into)
        {
            for (size_t chunk = 0; chunk < source.chunks(bucket); ++chunk)
            {
                check();
                size_t count = 0;
                const std::vector<ColumnView> columns = source.chunk(bucket, chunk, count);
                typename Method::Extractor extractor(keyViews(columns));
                for (size_t begin = 0; begin < count; begin += kAggregationBatchRows)
                {
                    aggregateBatch(into, extractor, columns, begin,
                                   std::min(kAggregationBatchRows, count - begin), states, scratch,
                                   places);
                }
            }
        };
        if constexpr (std::is_same_v<Key, std::string_view>)
        {
            // A two-level string table's buckets share one key arena, and routed strings last
            // only as long as their chunk: copy into the bucket's arena.
            CopyingKeysInto<std::remove_reference_t<decltype(table)>> copying{table, &states.arena};
            aggregateChunks(copying);
        }
        else
        {
            aggregateChunks(table);
        }
    }

    /// The query's only worker aggregates its routed rows into its own buckets whenever they
    /// number kRoutedRowsPerKey times the distinct keys routed so far, and refills the same
    /// buffers: no other worker's rows will join its buckets, and buffering every row would
    /// grow with the input, into memory not yet mapped (docs/aggregation.md). With more
    /// workers, each would build a table of nearly every key for the merge to combine: two
    /// workers at 10^6 keys measured 1.2-1.6x slower so.
    void aggregateRoutedRowsIfMany()
    {
        if (!sole_worker_check_cancelled_ || partitioned_->rows() < next_routed_check_)
        {
            return;
        }
        const BucketCardinality* sketch = routed_keys_.get();
        size_t keys = 0;
        for (size_t bucket = 0; bucket < kPartitionBuckets; ++bucket)
        {
            keys += BucketCardinality::estimate(bucket, std::span(&sketch, 1));
        }
        // Keys only grow: no need to look again before the buffer holds this many rows.
        next_routed_check_ = kRoutedRowsPerKey * keys;
        if (partitioned_->rows() < next_routed_check_)
        {
            return;
        }
        for (size_t bucket = 0; bucket < kPartitionBuckets; ++bucket)
        {
            prepareForRoutedRows(bucket, std::span(&sketch, 1), partitioned_->rows(bucket));
            aggregateRoutedRows(bucket, *partitioned_, own_states_, keys_.data(), places_.data(),
                                sole_worker_check_cancelled_);
        }
        routed_rows_aggregated_ += partitioned_->rows();
        partitioned_->clear();
    }

    void destroyStates(const States& states)
    {
        for (char* place : states.owned)
        {
            layout_.destroyStates(place);
        }
    }

    /// A sole worker with a small input keeps one table: its two-level buckets would serve no
    /// merge, and routing the rest of a small input costs more (scatter, 256 tables, fresh
    /// buffers) than the cache misses it saves. Fixed-width keys; string keys while most are
    /// held inline (up to 24 bytes) and the rows so far project at most twice
    /// sole_worker_single_level_max_groups over the input: long keys, compared through their
    /// bytes in the arena, miss twice per probe in one big table and gain more from
    /// cache-sized buckets, and a string table that grows on to that bound converts at a
    /// higher price than fixed keys route (docs/aggregation.md).
    bool soleWorkerDefersTwoLevel() const
    {
        if (!sole_worker_check_cancelled_ ||
            sole_worker_input_rows_ > settings_.sole_worker_single_level_rows)
        {
            return false;
        }
        if constexpr (requires { single_->longKeyCount(); })
        {
            return 2 * single_->longKeyCount() < single_->size() &&
                   sole_worker_groups_bound_.holds(single_->size(), rows_);
        }
        return kCanRoute;
    }

    /// Decided once, when the worker (one of several, its share of the input known) has seen
    /// partition_new_keys_rows rows, or half its share if that is less: whether its share
    /// will be mostly new keys (groupsWouldFillHalfTheShare), so that its table would hold
    /// nearly every row it is given, only for the merge to insert them all again; or whether
    /// its table would pass group_by_two_level_threshold within the share (projectedGroups),
    /// and turn two-level then anyway, after a growing table's misses and the conversion
    /// (Q16, `UserID` top 10 on 1M rows at 2 threads: 130K groups per worker). States
    /// that own memory (sets, samples, strings) keep the table: grown in the 256 buckets'
    /// arenas instead of one, their chunks' unused ends cost more memory than the merge saves
    /// work (a million groups of three quantile states: peak 390 -> 514 MB). Only where all
    /// workers together will be given kMinRowsPerBucketOfFixedKeys rows per bucket (string
    /// keys: kMinRowsPerBucketOfStrings): on fewer rows the 256 bucket tasks' fixed costs
    /// outweigh the merge they save (Q40 on 10M rows at 2 threads: 70K rows passed, 60K
    /// groups, 15.5 ms partitioned, 6.8 not; a string row carries its key's bytes, 233 here).
    bool partitionsNewKeysEarly()
    {
        if (new_keys_decided_ || expected_rows_ == 0 || settings_.partition_new_keys_rows == 0 ||
            sole_worker_check_cancelled_ || !settings_.partition_high_cardinality ||
            layout_.hasNonTrivialDestroy())
        {
            return false;
        }
        const size_t sample_rows = newKeysSampleRows(settings_.partition_new_keys_rows,
                                                     expected_rows_, kAggregationBatchRows);
        if (rows_ < sample_rows)
        {
            return false;
        }
        new_keys_decided_ = true;
        const size_t min_rows_per_bucket =
            kCanRoute ? kMinRowsPerBucketOfFixedKeys : kMinRowsPerBucketOfStrings;
        if (expected_input_rows_ < min_rows_per_bucket * kPartitionBuckets)
        {
            return false;
        }
        return shareLeftWorthPartitioning(expected_rows_, rows_, kPartitionBuckets) &&
               (groupsWouldFillHalfTheShare(single_->size(), rows_, expected_rows_) ||
                projectedGroups(single_->size(), rows_, expected_rows_) >
                    static_cast<double>(settings_.group_by_two_level_threshold));
    }

    void convertIfLarge()
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level_)
            {
                return;
            }
            const size_t bytes = single_->bufferBytes() + own_states_.arena.bytesUsed();
            if ((single_->size() > settings_.group_by_two_level_threshold &&
                 !soleWorkerDefersTwoLevel()) ||
                bytes > settings_.group_by_two_level_threshold_bytes)
            {
                convertToTwoLevel();
                return;
            }
            if (partitionsNewKeysEarly())
            {
                // Fixed-width groups wait, routed, for the merge's buckets; string keys (which
                // live in this partial's arena) are converted, at most a sample's groups.
                if constexpr (kCanRoute)
                {
                    routeToTwoLevel();
                }
                else
                {
                    convertToTwoLevel();
                }
                return;
            }
            // Past the bound with most rows so far new keys, the rest will be too: its groups
            // go to the buckets' merge, its further rows to partitions.
            if (single_->size() > std::max(settings_.group_by_two_level_threshold,
                                           settings_.sole_worker_single_level_max_groups) &&
                2 * single_->size() > rows_ && soleWorkerDefersTwoLevel())
            {
                if constexpr (kCanRoute)
                {
                    routeToTwoLevel();
                }
                else
                {
                    convertToTwoLevel();
                }
            }
        }
    }

    /// The two-level table type of methods that have one (a placeholder otherwise).
    template <typename M, bool = M::kHasTwoLevel>
    struct TwoLevelOf
    {
        using type = typename M::TwoLevel;
    };
    template <typename M>
    struct TwoLevelOf<M, false>
    {
        using type = Single;
    };

    const AggregateLayout& layout_;
    const AggregationSettings& settings_;
    std::vector<size_t> key_columns_;
    /// Declared before the tables: string tables keep their long keys in its arena.
    States own_states_;
    std::unique_ptr<Single> single_;
    std::unique_ptr<typename TwoLevelOf<Method>::type> two_level_;
    std::unique_ptr<PartitionedRows> partitioned_;
    using RoutedGroups = RoutedCellsFor<typename TwoLevelOf<Method>::type, kCanRoute>;
    /// This partial's groups, routed to buckets instead of converted (routeToTwoLevel).
    std::unique_ptr<RoutedGroups> routed_groups_;
    /// One per bucket once routed rows are aggregated (prepareForPartitionedRows).
    std::vector<States> bucket_states_;
    /// Distinct keys among the routed rows, per bucket (sizes the buckets' tables).
    std::unique_ptr<BucketCardinality> routed_keys_;
    bool new_keys_decided_ = false;   ///< partitionsNewKeysEarly has decided.
    size_t expected_rows_ = 0;        ///< This worker's share of the input; 0: unknown.
    size_t expected_input_rows_ = 0;  ///< All workers' rows together.
    std::vector<Key> keys_;
    std::vector<StatePointer> places_;
    std::vector<uint8_t> buckets_;
    /// A lone count's rows alone in their run, their buckets, key values and the views routed
    /// (countRunsRoutingSingles).
    std::vector<uint32_t> single_rows_;
    std::vector<uint8_t> single_buckets_;
    std::vector<Column> single_columns_;
    std::vector<ColumnView> single_views_;
    std::vector<uint32_t> run_lengths_ = std::vector<uint32_t>(kAggregationBatchRows);
    /// Runs of the batch being aggregated, and the batches left before looking stops.
    KeyRuns key_runs_;
    size_t run_probes_left_ = kRunProbeBatches;
    size_t rows_ = 0;
    /// Set for the query's only worker (setSoleWorker).
    std::function<void()> sole_worker_check_cancelled_;
    size_t sole_worker_input_rows_ = 0;
    /// Whether the groups so far project at most twice sole_worker_single_level_max_groups
    /// over the input (setSoleWorker).
    ProjectedGroupsBound sole_worker_groups_bound_{0, 0.0};
    /// Routed rows this (sole) worker has aggregated itself, and the buffered row count at
    /// which it next compares its buffer with the keys routed.
    size_t routed_rows_aggregated_ = 0;
    size_t next_routed_check_ = 0;
    size_t conversions_ = 0;
    size_t dropped_single_resizes_ = 0;
};

/// One worker's state without GROUP BY keys: a single group.
class PartialAggregateWithoutKey
{
public:
    explicit PartialAggregateWithoutKey(const AggregateLayout& layout)
        : layout_(layout), state_(layout.createStates(arena_))
    {
    }
    ~PartialAggregateWithoutKey() { layout_.destroyStates(state_); }
    PartialAggregateWithoutKey(const PartialAggregateWithoutKey&) = delete;
    PartialAggregateWithoutKey& operator=(const PartialAggregateWithoutKey&) = delete;

    void aggregate(const std::vector<ColumnView>& columns, size_t count)
    {
        layout_.addBatchSinglePlace(columns.data(), 0, count, state_, arena_);
        rows_ += count;
    }
    char* state() { return state_; }
    size_t rows() const { return rows_; }

private:
    const AggregateLayout& layout_;
    Arena arena_;
    char* state_;
    size_t rows_ = 0;
};

}  // namespace granary
