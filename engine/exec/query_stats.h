#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/observe/profile_event.h"
#include "engine/observe/resource_snapshot.h"

namespace granary
{

/// The phases of a query, in the order they run (each ends before the next). The first and
/// the last are the statement's serial time around the parallel ones, so that every
/// millisecond of a query falls in some phase (QueryStats::accountQueryWall).
enum class QueryPhase : size_t
{
    kPlan,      ///< Before the first task: parsing, planning, scan setup, the query's threads.
    kPartial,   ///< Per-thread aggregation of morsels into partial tables.
    kConvert,   ///< Single-level partials become two-level before a bucket merge.
    kMerge,     ///< Partials are merged (bucket by bucket where parallel).
    kFinalize,  ///< States become result columns.
    kResult,    ///< After the last task: ORDER BY, LIMIT, projections, the result block.
};
inline constexpr size_t kQueryPhaseCount = 6;
std::string_view phaseName(QueryPhase phase);

/// What a task's body reports of itself (TaskTimer::facts), so that the task that sets a
/// phase's span can be told apart: a skewed bucket, a table that grew, fresh memory.
struct TaskFacts
{
    size_t rows = 0;     ///< Rows the task read or routed.
    size_t groups = 0;   ///< Groups (or distinct values) its table holds when it ends.
    size_t growths = 0;  ///< Hash-table resizes during the task.
};

/// One task of a phase: its chain (own CPU time plus the longest nested chain it waited for),
/// its own CPU time, the page faults it took itself, its index in its parallel region (the
/// morsel, bucket or worker) and what its body reported.
struct TaskSample
{
    double chain_seconds = 0;
    bool faulted = false;
    double own_seconds = 0;
    size_t page_faults = 0;
    size_t index = 0;
    TaskFacts facts;
};

/// A stretch of wall time a phase's recorder was open (CLOCK_MONOTONIC nanoseconds).
struct WallInterval
{
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};

/// Time of one phase. work is the sum of its tasks' CPU times, span the longest chain of
/// dependent work (the largest task, plus the nested tasks it waited for). work / span is the
/// speedup unlimited cores could give the phase.
struct PhaseStats
{
    double wall_seconds = 0;
    double work_seconds = 0;
    double span_seconds = 0;
    size_t tasks = 0;
    /// Every task's chain, so that a span can be told apart from the typical task: where the
    /// longest task is many times the median, an outlier (often a first touch of fresh
    /// memory, which the kernel zeroes) sets the span rather than the size of the tasks.
    std::vector<TaskSample> task_samples;
    /// When its recorders were open (one per recorder; phases may be entered more than once).
    std::vector<WallInterval> intervals;

    double medianTaskSeconds() const;
    /// The task whose chain set the span (the longest); null without tasks.
    const TaskSample* longestTask() const;
    /// The longest chain among tasks that took no page fault (0 if every task faulted).
    double longestFaultlessTaskSeconds() const;
    size_t faultingTasks() const;
};

/// How partial results were merged.
enum class MergePath
{
    kNone,                      ///< Zero or one partial: nothing to merge.
    kSerial,                    ///< Small single-level partials merged on one thread.
    kParallelConvertMixed,      ///< Some partials two-level: the others converted in parallel.
    kParallelConvertAllSingle,  ///< All single-level but large: all converted in parallel.
    kParallelTwoLevel,          ///< All partials already two-level.
    kParallelFixedRanges,       ///< Direct-mapped tables merged by key ranges in parallel.
    kSerialThenParallel,        ///< Serial until the result outgrew a single-level table, then the
                                ///< rest converted and merged in parallel.
    kValueBuckets,  ///< Keyed count(DISTINCT): rows routed by value, distinct pairs counted per
                    ///< bucket, counts summed (no set merged; countDistinctByValueBuckets).
};
std::string_view mergePathName(MergePath path);

/// A query run across ranks (`granary mpi-query`): what this rank exchanged with the others,
/// and (at rank 0) every rank's figures. `ranks` is 0 for a query on one process.
struct ExchangeStats
{
    struct Rank
    {
        size_t state_bytes = 0;
        size_t result_bytes = 0;
        size_t bytes_sent = 0;
        size_t bytes_received = 0;
        double local_seconds = 0;
        double exchange_seconds = 0;
    };

    size_t ranks = 0;
    size_t rank = 0;
    /// Bytes of the partial states this rank produced, its own buckets' included: the copy
    /// of the states that the exchange moves at most once.
    size_t state_bytes = 0;
    /// Bytes of this rank's own result rows (its HAVING rows, top LIMIT + OFFSET) sent to
    /// rank 0 to meet the others'.
    size_t result_bytes = 0;
    size_t bytes_sent = 0;      ///< To other ranks (what stays on this rank is not counted).
    size_t bytes_received = 0;  ///< From other ranks.
    size_t messages_sent = 0;   ///< To other ranks, each one serialized block.
    size_t rounds = 0;          ///< Rounds of the state exchange (one message per peer each).
    /// Wall time in the collectives (transfers and waiting for the slowest rank).
    double exchange_seconds = 0;
    /// Wall time of this rank's own work: scan, partial aggregation, merge, top-N.
    double local_seconds = 0;
    std::vector<Rank> per_rank;  ///< At rank 0: every rank's, in rank order.

    /// The slowest rank's local work over the mean (1: even); 0 without per_rank figures.
    double imbalance() const;
};

struct QueryStats
{
    std::array<PhaseStats, kQueryPhaseCount> phases{};
    MergePath merge_path = MergePath::kNone;           ///< GROUP BY tables (or kValueBuckets).
    MergePath distinct_merge_path = MergePath::kNone;  ///< count(DISTINCT) sets (no keys), or
                                                       ///< kValueBuckets (keyed).
    size_t partials = 0;
    size_t single_level_partials = 0;
    size_t two_level_partials = 0;
    /// Single-level partials whose groups were routed to the merge's buckets instead of being
    /// converted to two-level tables (fixed-width keys).
    size_t routed_partials = 0;
    size_t single_level_sets = 0;  ///< count(DISTINCT) partial sets still single-level.
    size_t two_level_sets = 0;
    size_t parallel_state_merges = 0;  ///< Keyed distinct states merged bucket-parallel.
    size_t input_rows = 0;
    size_t result_rows = 0;
    /// Groups never finalized because the caller keeps only the top ones (TopGroups).
    size_t unfinalized_groups = 0;
    /// Rows a GROUP BY ... LIMIT without ORDER BY dropped: their keys were not among the
    /// first LIMIT keys met (AnyGroupsFilter).
    size_t rows_outside_any_groups = 0;
    /// The aggregates came from part metadata (row counts, granule bounds), without a scan
    /// (engine/planner/metadata_aggregation.h).
    bool aggregated_from_metadata = false;
    /// Morsels an ORDER BY ... LIMIT scan never read: their sort-key bounds could not enter
    /// the top rows.
    size_t top_rows_morsels_skipped = 0;
    /// Rows whose other columns late materialization read after the scan of the ORDER BY
    /// keys found them (the top rows).
    size_t late_materialized_rows = 0;
    /// The GROUP BY keys the query grouped by (after rewrites that leave keys out).
    std::vector<std::string> group_keys;
    /// The aggregate functions the query computed, each once (after rewrites).
    std::vector<std::string> aggregates;
    size_t peak_memory_bytes = 0;  ///< Tracked (tables, arenas), at most the memory limit.
    /// GROUP BY partials' hash tables and arenas at the end of the partial phase.
    size_t partial_memory_bytes = 0;
    /// Rows routed by key hash to bucket buffers (partition_high_cardinality) instead of being
    /// aggregated into their worker's table; the merge phase's bucket tasks aggregate them.
    size_t partitioned_rows = 0;
    size_t partitioned_bytes = 0;  ///< The buffers those rows were held in.
    /// Of the partitioned rows, those that the query's only worker aggregated during the
    /// partial phase, whenever its buffers held many rows per key (the rest wait for the
    /// bucket tasks).
    size_t partitioned_rows_aggregated_early = 0;
    /// Groups summed over the partials (a key counts once per partial).
    size_t partial_groups = 0;
    ProfileEventCounts profile_events;  ///< Counted by the query's tasks only.
    ResourceUsage resources;  ///< Allocator bytes and page faults, process-wide, over the query.
    ExchangeStats exchange;

    PhaseStats& phase(QueryPhase p) { return phases[static_cast<size_t>(p)]; }
    const PhaseStats& phase(QueryPhase p) const { return phases[static_cast<size_t>(p)]; }
    /// The statement's wall time, parse to result, where a Session ran it (0 elsewhere: the
    /// embedding API and benchmarks time the parallel phases only).
    double query_seconds = 0;
    /// Of query_seconds, the time between parallel phases that none of them covered: what
    /// the phases do not explain.
    double outside_phases_seconds = 0;

    /// Given the statement's start and end (wallNanoseconds), sets query_seconds, the plan
    /// and result phases (serial: work = span = wall) to the time before the first recorded
    /// interval and after the last, and outside_phases_seconds to the gaps between them.
    void accountQueryWall(int64_t start_ns, int64_t end_ns);
    double totalWork() const;
    double totalSpan() const;
    double totalWall() const;
    /// Multi-line human-readable summary (phases, work/span, merge paths).
    std::string toString() const;
    /// One line per phase of two or more tasks: the task that set its span, with its facts.
    std::string longestTasksText() const;
};

}  // namespace granary
