#pragma once

#include <cstddef>
#include <thread>

#include "engine/aggregation/functions/uniq_exact.h"
#include "engine/aggregation/parallel_merge_cost.h"

namespace granary
{

/// Settings of one aggregation, named as in ClickHouse where ClickHouse has them.
struct AggregationSettings
{
    /// Threads (partial tables); may exceed the core count to exercise many-partial merges.
    size_t max_threads = std::thread::hardware_concurrency();
    /// A partial table converts itself to two-level past this many groups...
    size_t group_by_two_level_threshold = 100'000;
    /// ...or past this many bytes of table and arena.
    size_t group_by_two_level_threshold_bytes = 50 * 1024 * 1024;
    /// The query's only worker, with fixed-width keys and an input of at most this many rows,
    /// keeps its table single-level past group_by_two_level_threshold groups (not past the
    /// bytes threshold): one table beat routing rows to buckets at 1M rows, and lost at 10M
    /// (docs/aggregation.md).
    size_t sole_worker_single_level_rows = 2 * 1024 * 1024;
    /// ...until its table holds this many groups from fewer than twice as many rows: then the
    /// keys are mostly new and the table outgrows the caches, so its groups are routed to
    /// buckets and its further rows partitioned, as on the two-level path
    /// (docs/aggregation.md).
    size_t sole_worker_single_level_max_groups = 256 * 1024;
    /// GROUP BY a String key with count(DISTINCT x) alone counts by value buckets, the keys
    /// numbered (KeyNumbering), over inputs of at most this many rows: past them the
    /// numbering's table outgrows the caches, and its miss per row cost more than the per-key
    /// sets' partitioned path (docs/aggregation.md).
    size_t string_key_value_buckets_rows = 2 * 1024 * 1024;
    /// All-single-level partials merge on one thread into the first unless the parallel
    /// convert-all path is estimated faster on the query's workers (measured on 2 threads:
    /// 3.2-4.6 times the serial work per group, plus 17-31 per partial and bucket).
    ParallelMergeCost merge_cost;
    /// Once a worker's table is two-level (past the thresholds above, so most rows miss the
    /// caches), route its further rows by key hash to per-bucket buffers instead; after the
    /// partial phase one task per bucket aggregates them into a cache-sized table, with no
    /// merge of partial tables for them (fixed-width keys; docs/aggregation.md).
    bool partition_high_cardinality = true;
    /// A worker among several samples this many of its first rows (half its share of the
    /// input at most) and, when they say most of its share will be new keys
    /// (groupsWouldFillHalfTheShare), routes its groups to the merge's buckets and partitions
    /// its further rows, as past the thresholds above: otherwise each key would be inserted
    /// into every worker's table that meets it and again in the merge (work inflation,
    /// docs/scaling.md). Fixed-width keys and states that own no memory, with
    /// partition_high_cardinality; 0 turns it off.
    size_t partition_new_keys_rows = 4096;
    /// Rows a worker takes at a time from a Block input (fewer when there are too few morsels
    /// to give every worker several).
    size_t morsel_rows = 65'536;
    /// Workers take morsels round-robin instead of first come, first served: the same
    /// partial tables on every run (tests, studies), at the price of load balance.
    bool deterministic_morsels = false;
    /// GROUP BY with LIMIT n (at most AnyGroupsFilter::kMaxGroups) and no ORDER BY or HAVING
    /// aggregates only the first n distinct keys met, dropping other rows after one probe.
    bool limit_to_any_groups = true;
    /// Per-query memory limit for tables and arenas; 0 = none.
    size_t max_memory_usage = 0;
    /// count(DISTINCT) states.
    DistinctSettings distinct;
};

}  // namespace granary
