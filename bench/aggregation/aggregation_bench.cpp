// Aggregation benchmarks: GROUP BY and count(DISTINCT) through the engine's Aggregator, at 1
// and 2 threads (the 1->2 speedup is reported by the 2-thread run) and at 256 oversubscribed
// threads (for work/span: what unlimited cores could give). Counters: rows/s, speedup,
// work/span, per-phase times, peak tracked memory and bytes per distinct key per partial.
// BM_BareTable counts the same keys with the hash table alone (at 2 threads, each thread its
// share into a table of its own: the machine's ceiling for the partial phase's speedup), and
// BM_VsBareTable times it and the 1-thread GROUP BY count(*) alternately (vs_bare_table).
// BM_IdenticalTasks runs the 256-partial query's task counts with equal arithmetic tasks: the
// work/span the machine itself allows, beside the queries' figures.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/aggregation/aggregator.h"
#include "engine/exec/phase_recorder.h"
#include "hashtables/batch.h"
#include "hashtables/hash_map.h"

namespace granary
{
namespace
{

/// 20M rows per input, as in the issue; GRANARY_BENCH_ROWS overrides for quick runs.
size_t benchRows()
{
    const char* rows = std::getenv("GRANARY_BENCH_ROWS");
    return rows != nullptr ? std::stoull(rows) : 20'000'000;
}

/// Thread counts of the timed runs: "1,2" (the pair) unless GRANARY_BENCH_THREADS lists
/// others, as a many-core scaling run does ("1,2,4,8,16"). The speedup is against the 1-thread run.
std::vector<size_t> benchThreads()
{
    const char* list = std::getenv("GRANARY_BENCH_THREADS");
    std::vector<size_t> threads;
    std::string text = list != nullptr ? list : "1,2";
    size_t start = 0;
    while (start < text.size())
    {
        const size_t comma = std::min(text.find(',', start), text.size());
        threads.push_back(std::stoull(text.substr(start, comma - start)));
        start = comma + 1;
    }
    return threads;
}

/// Regions in the RegionID-like key (ClickBench hits has about 9,000 of them).
constexpr size_t kRegions = 9'000;
/// Users per region draw: the UserID-like column has this many distinct values.
constexpr size_t kUsers = 10'000'000;
/// Runs of each `partials:N` benchmark: work/span is reported for the last and as the median.
constexpr size_t kPartialsRuns = 5;

/// A UInt64 key column with `distinct` random values drawn uniformly, plus a UInt32 value
/// column and a Zipf-like RegionID (UInt32) column.
struct Input
{
    Block block;
    BlockView view;
};

const Input& input(size_t distinct)
{
    static std::map<size_t, Input> cache;
    Input& data = cache[distinct];
    if (data.block.columns.empty())
    {
        const size_t rows = benchRows();
        std::mt19937_64 random(distinct);
        std::vector<uint64_t> pool(distinct);
        for (auto& key : pool)
        {
            key = random();
        }
        Column key(TypeId::UInt64);
        Column value(TypeId::UInt32);
        Column region(TypeId::UInt32);
        key.resizeFixed(rows);
        value.resizeFixed(rows);
        region.resizeFixed(rows);
        for (size_t row = 0; row < rows; ++row)
        {
            key.mutableData<uint64_t>()[row] = pool[random() % distinct];
            value.mutableData<uint32_t>()[row] = static_cast<uint32_t>(random() % 10'000);
            // Squaring a uniform draw concentrates rows on low region ids (a few heavy regions).
            const double u = static_cast<double>(random() % 1'000'000) / 1'000'000;
            region.mutableData<uint32_t>()[row] = static_cast<uint32_t>(u * u * kRegions);
        }
        data.block.columns.push_back({"key", std::move(key)});
        data.block.columns.push_back({"value", std::move(value)});
        data.block.columns.push_back({"region", std::move(region)});
        data.view = BlockView::of(data.block);
    }
    return data;
}

size_t peakResidentBytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<size_t>(usage.ru_maxrss) * 1024;
}

/// Best time of each benchmark at 1 thread, so the 2-thread run can report the speedup.
std::map<std::string, double>& singleThreadSeconds()
{
    static std::map<std::string, double> seconds;
    return seconds;
}

/// Best time of the bare table counting each input's keys, for the engine's count(*) to compare.
std::map<size_t, double>& bareTableSeconds()
{
    static std::map<size_t, double> seconds;
    return seconds;
}

/// Counts the rows of each of `count` keys with the hash table alone, into a fresh table.
void countWithBareTable(const uint64_t* keys, size_t count)
{
    HashMap<uint64_t, uint64_t> table;
    emplaceBatch(table, keys, count, [](auto* cell, bool, size_t) { ++cell->mapped(); });
    benchmark::DoNotOptimize(table.size());
}

/// The hash table alone counting rows per key (what bench/hash_tables times as "granary"):
/// the floor that a 1-thread GROUP BY key with count(*) over the same keys is measured against.
/// With `threads` > 1 each thread counts its own share of the rows into a table of its own,
/// with no merge: its speedup over one thread is what the machine allows the partial phase
/// of the same keys (speedup_vs_1, beside the GROUP BY's own).
void runBareTable(benchmark::State& state, size_t distinct, size_t threads)
{
    const Input& data = input(distinct);
    const ColumnView& keys = data.view.columns.front().column;
    const uint64_t* values = keys.values<uint64_t>().data();
    double best_seconds = 1e300;
    for (auto _ : state)
    {
        const auto started = std::chrono::steady_clock::now();
        std::vector<std::thread> workers;
        for (size_t t = 0; t < threads; ++t)
        {
            workers.emplace_back(
                [&, t]
                {
                    const size_t begin = keys.rows * t / threads;
                    const size_t end = keys.rows * (t + 1) / threads;
                    countWithBareTable(values + begin, end - begin);
                });
        }
        for (std::thread& worker : workers)
        {
            worker.join();
        }
        best_seconds = std::min(
            best_seconds,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    if (threads == 1)
    {
        bareTableSeconds()[distinct] = best_seconds;
    }
    else if (bareTableSeconds().count(distinct))
    {
        state.counters["speedup_vs_1"] = bareTableSeconds()[distinct] / best_seconds;
    }
    state.counters["rows/s"] = benchmark::Counter(
        static_cast<double>(keys.rows * state.iterations()), benchmark::Counter::kIsRate);
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

void runAggregation(benchmark::State& state, const std::string& name, size_t distinct,
                    const std::vector<std::string>& keys,
                    const std::vector<AggregateDescription>& aggregates, size_t threads,
                    size_t partials, AggregationSettings settings)
{
    const Input& data = input(distinct);
    settings.max_threads = threads;
    const Aggregator aggregator(keys, aggregates, settings);
    QueryStats stats;
    size_t groups = 0;
    double best_seconds = 1e300;
    // Per run: a single run's span can be an outlier of the machine (docs/aggregation.md).
    std::vector<double> spans;
    std::vector<double> works_per_span;
    for (auto _ : state)
    {
        QueryContext context(threads);
        context.setWorkers(partials);
        const Block result = aggregator.execute(data.view, context);
        groups = result.rows();
        stats = context.stats();
        best_seconds = std::min(best_seconds, stats.totalWall());
        spans.push_back(stats.totalSpan());
        works_per_span.push_back(stats.totalWork() / stats.totalSpan());
    }
    const double rows = static_cast<double>(data.view.rows());
    state.counters["rows/s"] = benchmark::Counter(rows * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
    state.counters["groups"] = static_cast<double>(groups);
    state.counters["work/span"] = stats.totalWork() / stats.totalSpan();
    state.counters["work_ms"] = stats.totalWork() * 1e3;
    state.counters["span_ms"] = stats.totalSpan() * 1e3;
    state.counters["median_work/span"] = median(works_per_span);
    state.counters["median_span_ms"] = median(spans) * 1e3;
    for (size_t p = 0; p < kQueryPhaseCount; ++p)
    {
        const std::string phase(phaseName(static_cast<QueryPhase>(p)));
        state.counters[phase + "_ms"] = stats.phases[p].wall_seconds * 1e3;
        // The phase's task time and its longest chain of tasks: their ratio is the phase's
        // parallelism, the lowest of which bounds the query's work/span.
        state.counters[phase + "_work_ms"] = stats.phases[p].work_seconds * 1e3;
        state.counters[phase + "_span_ms"] = stats.phases[p].span_seconds * 1e3;
        // Whether the span is the typical task or an outlier, and whether page faults made
        // it one: the median task, the tasks that faulted, the longest task that did not.
        state.counters[phase + "_median_task_ms"] = stats.phases[p].medianTaskSeconds() * 1e3;
        state.counters[phase + "_faulting_tasks"] =
            static_cast<double>(stats.phases[p].faultingTasks());
        state.counters[phase + "_faultless_span_ms"] =
            stats.phases[p].longestFaultlessTaskSeconds() * 1e3;
        // What the task that set the span did: skew (groups, rows) or the machine (faults).
        if (const TaskSample* longest = stats.phases[p].longestTask())
        {
            state.counters[phase + "_longest_groups"] = static_cast<double>(longest->facts.groups);
            state.counters[phase + "_longest_rows"] = static_cast<double>(longest->facts.rows);
            state.counters[phase + "_longest_faults"] = static_cast<double>(longest->page_faults);
        }
    }
    state.counters["partials"] = static_cast<double>(stats.partials);
    state.counters["partitioned_rows"] = static_cast<double>(stats.partitioned_rows);
    state.counters["partitioned_rows_early"] =
        static_cast<double>(stats.partitioned_rows_aggregated_early);
    state.counters["partitioned_MB"] = static_cast<double>(stats.partitioned_bytes) / 1e6;
    state.counters["peak_tracked_MB"] = static_cast<double>(stats.peak_memory_bytes) / 1e6;
    state.counters["peak_rss_MB"] = static_cast<double>(peakResidentBytes()) / 1e6;
    // Fresh memory the kernel had to zero: a query that reuses the allocator's pages has few.
    state.counters["page_faults"] = static_cast<double>(stats.resources.minor_page_faults);
    if (!keys.empty() && stats.partial_groups > 0)
    {
        // A partial table's cells and arena per group it holds (the memory target),
        // and the query's tracked peak (which adds the merge and the result columns) per group.
        state.counters["bytes/key/partial"] = static_cast<double>(stats.partial_memory_bytes) /
                                              static_cast<double>(stats.partial_groups);
        state.counters["peak_bytes/key"] =
            static_cast<double>(stats.peak_memory_bytes) / static_cast<double>(groups);
    }
    if (threads == 1)
    {
        singleThreadSeconds()[name] = best_seconds;
    }
    else if (singleThreadSeconds().count(name))
    {
        state.counters["speedup_vs_1"] = singleThreadSeconds()[name] / best_seconds;
    }
    state.SetLabel(std::string(mergePathName(stats.merge_path)) + "/" +
                   std::string(mergePathName(stats.distinct_merge_path)));
}

/// Steps of an identical task: about a millisecond of CPU time here, the order of the
/// 256-partial GROUP BY's median tasks.
constexpr uint64_t kIdenticalTaskSteps = 1'000'000;
/// The memory the memory-bound identical tasks update at random, written once before timing
/// so that no task takes a page fault: each task works in one window of it, far beyond L2.
constexpr size_t kIdenticalTaskWindowWords = size_t{2} << 20;
constexpr size_t kIdenticalTaskWindows = 16;

/// The machine's own floor under work/span: a query's phases again (1,024 morsel tasks, then
/// three phases of 256 bucket tasks, on the machine's threads), every task the same loop:
/// arithmetic that touches no memory, or (`memory`) as many random updates of a window of
/// already-mapped memory. On an ideal machine every task takes as long and work/span is
/// (1,024 + 3 * 256) / 4 = 448; what the run reports below that is the machine (preemption
/// the guest cannot see, the host's handling of its memory), not the engine. Counters:
/// work/span, ideal_work/span, and the longest task over the median (max_over_median).
void runIdenticalTasks(benchmark::State& state, bool memory)
{
    constexpr std::array<size_t, kQueryPhaseCount> kTasks = {1024, 256, 256, 256};
    std::vector<uint64_t> words(memory ? kIdenticalTaskWindows * kIdenticalTaskWindowWords : 0, 1);
    QueryStats stats;
    for (auto _ : state)
    {
        QueryContext context(std::thread::hardware_concurrency());
        stats = QueryStats{};
        for (size_t p = 0; p < kQueryPhaseCount; ++p)
        {
            PhaseRecorder recorder(stats.phases[p]);
            context.runTasks(recorder, kTasks[p],
                             [&](size_t task, TaskTimer&)
                             {
                                 uint64_t x = task + 1;
                                 uint64_t* window = words.data() + (task % kIdenticalTaskWindows) *
                                                                       kIdenticalTaskWindowWords;
                                 for (uint64_t step = 0; step < kIdenticalTaskSteps; ++step)
                                 {
                                     x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                                     if (memory)
                                     {
                                         window[(x >> 40) % kIdenticalTaskWindowWords] += x;
                                         step += 7;  // A cache miss costs about as much as 8 steps.
                                     }
                                 }
                                 benchmark::DoNotOptimize(x);
                             });
        }
    }
    double longest_over_median = 0;
    for (const PhaseStats& phase : stats.phases)
    {
        longest_over_median =
            std::max(longest_over_median, phase.span_seconds / phase.medianTaskSeconds());
    }
    state.counters["work/span"] = stats.totalWork() / stats.totalSpan();
    state.counters["ideal_work/span"] =
        static_cast<double>(std::accumulate(kTasks.begin(), kTasks.end(), size_t{0})) /
        kQueryPhaseCount;
    state.counters["max_over_median"] = longest_over_median;
    state.counters["median_task_ms"] = stats.phases[0].medianTaskSeconds() * 1e3;
    state.counters["span_ms"] = stats.totalSpan() * 1e3;
}

/// Rounds of BM_VsBareTable: each times the bare table, then the engine, on the same keys.
constexpr size_t kVsBareTableRounds = 5;

/// The process's user and system CPU seconds so far.
struct CpuSeconds
{
    double user = 0;
    double system = 0;
};

CpuSeconds processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& time)
    { return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6; };
    return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

/// GROUP BY key with count(*) on one thread against the bare table counting the same keys, the
/// two timed alternately, round after round, so that whatever the machine does to one round
/// (a busy neighbour, the host's handling of fresh memory) it does to both. Each timed run
/// follows an untimed run of the same side, so that each finds the allocator as its own last
/// run left it, as in the repeated runs of BM_CountByKey and BM_GroupBy: straight after the
/// other side, the engine's smaller arrays could not reuse the bare table's one large freed
/// extent (lg_extent_max_active_fit) and faulted in fresh memory every round. vs_bare_table is
/// the bare table's best time over the engine's (above 1: the engine is faster);
/// vs_bare_table_median the median of the rounds' own ratios. The CPU time of each splits
/// into user time (the code's own work) and system time (the kernel, mostly faulting in
/// fresh pages): medians over the rounds, and the ratio of the user-time medians.
void runVsBareTable(benchmark::State& state, size_t distinct)
{
    const Input& data = input(distinct);
    const ColumnView& keys = data.view.columns.front().column;
    AggregationSettings settings;
    settings.max_threads = 1;
    const Aggregator aggregator({"key"}, {{"count", {}, "c"}}, settings);
    struct Timed
    {
        std::vector<double> wall;
        std::vector<double> user;
        std::vector<double> system;
    };
    auto time = [](Timed& into, auto&& run)
    {
        const CpuSeconds cpu = processCpuSeconds();
        const auto started = std::chrono::steady_clock::now();
        run();
        into.wall.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        const CpuSeconds after = processCpuSeconds();
        into.user.push_back(after.user - cpu.user);
        into.system.push_back(after.system - cpu.system);
    };
    Timed bare;
    Timed engine;
    std::vector<double> ratios;
    for (auto _ : state)
    {
        auto runBare = [&] { countWithBareTable(keys.values<uint64_t>().data(), keys.rows); };
        auto runEngine = [&]
        {
            QueryContext context(1);
            benchmark::DoNotOptimize(aggregator.execute(data.view, context).rows());
        };
        for (size_t round = 0; round < kVsBareTableRounds; ++round)
        {
            runBare();
            time(bare, runBare);
            runEngine();
            time(engine, runEngine);
            ratios.push_back(bare.wall.back() / engine.wall.back());
        }
    }
    const double bare_best = *std::min_element(bare.wall.begin(), bare.wall.end());
    const double engine_best = *std::min_element(engine.wall.begin(), engine.wall.end());
    state.counters["vs_bare_table"] = bare_best / engine_best;
    state.counters["vs_bare_table_median"] = median(ratios);
    state.counters["bare_best_ms"] = bare_best * 1e3;
    state.counters["engine_best_ms"] = engine_best * 1e3;
    state.counters["bare_user_ms"] = median(bare.user) * 1e3;
    state.counters["engine_user_ms"] = median(engine.user) * 1e3;
    state.counters["bare_system_ms"] = median(bare.system) * 1e3;
    state.counters["engine_system_ms"] = median(engine.system) * 1e3;
    state.counters["vs_bare_table_user_time"] = median(bare.user) / median(engine.user);
}

void registerRun(const std::string& name, const std::string& suffix, size_t distinct,
                 const std::vector<std::string>& keys,
                 const std::vector<AggregateDescription>& aggregates, size_t threads,
                 size_t partials, AggregationSettings settings = {})
{
    benchmark::RegisterBenchmark(
        (name + suffix).c_str(), [=](benchmark::State& state)
        { runAggregation(state, name, distinct, keys, aggregates, threads, partials, settings); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(partials > 0                         ? kPartialsRuns
                     : std::max<size_t>(threads, 1) >= 64 ? 1
                                                          : 2)
        ->UseRealTime();
}

void registerCase(const std::string& name, size_t distinct, std::vector<std::string> keys,
                  std::vector<AggregateDescription> aggregates, std::vector<size_t> threads,
                  AggregationSettings settings = {})
{
    for (size_t t : threads)
    {
        registerRun(name, "/threads:" + std::to_string(t), distinct, keys, aggregates, t, 0,
                    settings);
    }
}

/// `partials` workers run on the machine's threads, each uninterrupted: the tasks and merges of
/// that many cores without time-slicing as many threads.
void registerPartials(const std::string& name, size_t distinct, std::vector<std::string> keys,
                      std::vector<AggregateDescription> aggregates, size_t partials)
{
    registerRun(name, "/partials:" + std::to_string(partials), distinct, keys, aggregates,
                std::thread::hardware_concurrency(), partials);
}

/// How BM_MergePath merges: on one thread into a single-level target throughout, on the
/// parallel convert-all path, or as the aggregator's serial path does (GROUP BY: on one thread
/// until the result outgrows a single-level table, then in parallel; count(DISTINCT): on one
/// thread, the target turning two-level as it grows).
enum class MergeChoice
{
    kSerial,
    kParallel,
    kSerialFirst
};

/// The cost of merging all-single-level partials on one thread against the parallel
/// convert-all path, on the machine's threads (the constants of ParallelMergeCost come from
/// here): `partials` workers (more than the threads, so worker w takes morsels w, w + partials,
/// ...) each aggregate `groups` keys (GROUP BY key with count(*); with `distinct`,
/// count(DISTINCT key) without GROUP BY), the same keys in every worker (`shared`) or keys of
/// their own; then the merge runs down the path `choice` gives. Timed: convert, merge and
/// finalize (the partial phase is the same for every path).
void runMergePath(benchmark::State& state, size_t groups, size_t partials, bool shared,
                  bool distinct, MergeChoice choice)
{
    // Four morsels per worker of max(groups, 8192) rows each (the morsel size the aggregator
    // picks for this many rows and workers).
    const size_t morsel_rows = std::max<size_t>(groups, 8192);
    const size_t rows = partials * 4 * morsel_rows;
    static std::map<std::tuple<size_t, size_t, bool>, Block> inputs;
    Block& block = inputs[{groups, partials, shared}];
    if (block.columns.empty())
    {
        std::mt19937_64 random(groups);
        Column key(TypeId::UInt64);
        key.resizeFixed(rows);
        for (size_t row = 0; row < rows; ++row)
        {
            const size_t worker = (row / morsel_rows) % partials;
            key.mutableData<uint64_t>()[row] =
                random() % groups + 1 + (shared ? 0 : worker * groups);
        }
        block.columns.push_back({"key", std::move(key)});
    }
    AggregationSettings settings;
    settings.max_threads = std::thread::hardware_concurrency();
    settings.morsel_rows = morsel_rows;
    settings.merge_cost = choice == MergeChoice::kParallel ? ParallelMergeCost::alwaysParallel()
                                                           : ParallelMergeCost::alwaysSerial();
    settings.distinct.merge_cost = settings.merge_cost;
    if (choice == MergeChoice::kSerial)
    {
        // Partials stay single-level either way (under 100,000 keys each).
        settings.group_by_two_level_threshold = SIZE_MAX;
        settings.distinct.two_level_threshold = SIZE_MAX;
    }
    const Aggregator aggregator = distinct ? Aggregator({}, {{"uniqExact", {"key"}, "u"}}, settings)
                                           : Aggregator({"key"}, {{"count", {}, "c"}}, settings);
    QueryStats stats;
    for (auto _ : state)
    {
        QueryContext context(settings.max_threads);
        context.setWorkers(partials);
        const Block result = aggregator.execute(BlockView::of(block), context);
        benchmark::DoNotOptimize(result.rows());
        stats = context.stats();
        state.SetIterationTime(stats.totalWall() - stats.phase(QueryPhase::kPartial).wall_seconds);
    }
    state.counters["partials"] = static_cast<double>(stats.partials);
    state.SetLabel(
        std::string(mergePathName(distinct ? stats.distinct_merge_path : stats.merge_path)));
}

void registerMergePaths()
{
    for (bool distinct : {false, true})
    {
        for (bool shared : {true, false})
        {
            for (size_t partials : {16, 64})
            {
                for (size_t groups : {1'000, 3'000, 10'000, 30'000})
                {
                    for (const auto& [choice, label] :
                         {std::pair{MergeChoice::kSerial, "serial"},
                          std::pair{MergeChoice::kParallel, "parallel"},
                          std::pair{MergeChoice::kSerialFirst, "serial_first"}})
                    {
                        const std::string name =
                            std::string("BM_MergePath/") + (distinct ? "distinct/" : "") +
                            (shared ? "shared" : "disjoint") + "/groups:" + std::to_string(groups) +
                            "/partials:" + std::to_string(partials) + "/" + label;
                        benchmark::RegisterBenchmark(
                            name.c_str(), [=, choice = choice](benchmark::State& state)
                            { runMergePath(state, groups, partials, shared, distinct, choice); })
                            ->Unit(benchmark::kMillisecond)
                            ->UseManualTime()
                            ->Iterations(10)
                            ->Repetitions(3)
                            ->ReportAggregatesOnly(true);
                    }
                }
            }
        }
    }
}

/// One family per function of the library (docs/functions.md): each over `value` (and
/// `region` where it takes two arguments), by 100,000 keys, at the benchmark's thread counts.
/// The same functions are timed against DuckDB by bench/clickbench/functions.sql.
void registerFunctionFamilies(const std::vector<size_t>& threads)
{
    constexpr size_t kFunctionGroups = 100'000;
    const std::vector<AggregateDescription> functions = {
        {"sum", {"value"}, "r"},
        {"sumWithOverflow", {"value"}, "r"},
        {"avg", {"value"}, "r"},
        {"min", {"value"}, "r"},
        {"anyLast", {"value"}, "r"},
        {"anyHeavy", {"value"}, "r"},
        {"argMax", {"region", "value"}, "r"},
        {"groupBitXor", {"value"}, "r"},
        {"varPop", {"value"}, "r"},
        {"stddevSamp", {"value"}, "r"},
        {"corr", {"value", "region"}, "r"},
        {"uniqExact", {"value"}, "r"},
        {"uniq", {"value"}, "r"},
        {"uniqCombined", {"value"}, "r"},
        {"quantileExact", {"value"}, "r", "", {0.9}},
        {"quantile", {"value"}, "r", "", {0.9}},
        {"quantileTDigest", {"value"}, "r", "", {0.9}},
        {"quantilesExact", {"value"}, "r", "", {0.5, 0.9}},
        {"quantiles", {"value"}, "r", "", {0.5, 0.9}},
        {"quantilesTDigest", {"value"}, "r", "", {0.5, 0.9}},
        {"topK", {"region"}, "r", "", {5}},
        {"sumState", {"value"}, "r"},
        {"sumDistinct", {"value"}, "r"},
    };
    for (const AggregateDescription& function : functions)
    {
        registerCase("BM_Function/" + function.function + "/" + std::to_string(kFunctionGroups),
                     kFunctionGroups, {"key"}, {function}, threads);
    }
}

void registerAll()
{
    const std::vector<size_t> threads = benchThreads();
    registerFunctionFamilies(threads);
    const std::vector<AggregateDescription> count_sum_avg = {
        {"count", {}, "c"}, {"sum", {"value"}, "s"}, {"avg", {"value"}, "a"}};
    for (size_t distinct : {1'000, 100'000, 1'000'000, 10'000'000})
    {
        registerCase("BM_GroupBy/count_sum_avg/" + std::to_string(distinct), distinct, {"key"},
                     count_sum_avg, threads);
    }
    // The baseline of partitioning: every row aggregated by the worker that read it.
    AggregationSettings unpartitioned;
    unpartitioned.partition_high_cardinality = false;
    for (size_t distinct : {1'000'000, 10'000'000})
    {
        registerCase("BM_GroupBy/count_sum_avg/" + std::to_string(distinct) + "/unpartitioned",
                     distinct, {"key"}, count_sum_avg, threads, unpartitioned);
    }
    for (size_t distinct : {1'000, 100'000, 1'000'000, 10'000'000})
    {
        for (size_t t : threads)
        {
            benchmark::RegisterBenchmark(
                ("BM_BareTable/count/" + std::to_string(distinct) + "/threads:" + std::to_string(t))
                    .c_str(),
                [=](benchmark::State& state) { runBareTable(state, distinct, t); })
                ->Unit(benchmark::kMillisecond)
                ->Iterations(2)
                ->UseRealTime();
        }
        registerCase("BM_GroupBy/count/" + std::to_string(distinct), distinct, {"key"},
                     {{"count", {}, "c"}},
                     distinct == 10'000'000 ? threads : std::vector<size_t>{1});
        benchmark::RegisterBenchmark(("BM_VsBareTable/count/" + std::to_string(distinct)).c_str(),
                                     [=](benchmark::State& state)
                                     { runVsBareTable(state, distinct); })
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1)
            ->UseRealTime();
        if (distinct >= 1'000'000)
        {
            registerCase("BM_GroupBy/count/" + std::to_string(distinct) + "/unpartitioned",
                         distinct, {"key"}, {{"count", {}, "c"}}, {1}, unpartitioned);
        }
    }
    registerCase("BM_CountDistinct/10000000", 10'000'000, {}, {{"uniqExact", {"key"}, "u"}},
                 threads);
    registerCase("BM_CountDistinct/10000000/unpartitioned", 10'000'000, {},
                 {{"uniqExact", {"key"}, "u"}}, threads, unpartitioned);
    registerCase("BM_RegionDistinctUsers", kUsers, {"region"}, {{"uniqExact", {"key"}, "u"}},
                 threads);
    // The baseline of value buckets: a set per region, merged across partials.
    AggregationSettings per_key_sets;
    per_key_sets.distinct.count_by_value_buckets = false;
    registerCase("BM_RegionDistinctUsers/per_key_sets", kUsers, {"region"},
                 {{"uniqExact", {"key"}, "u"}}, threads, per_key_sets);
    // 256 partials on a few cores: the merge plans at the scale of a 256-thread machine, as
    // 256 oversubscribed threads and as 256 workers on the machine's threads.
    registerCase("BM_GroupBy/count_sum_avg/10000000", 10'000'000, {"key"}, count_sum_avg, {256});
    registerCase("BM_CountDistinct/10000000", 10'000'000, {}, {{"uniqExact", {"key"}, "u"}}, {256});
    registerPartials("BM_GroupBy/count_sum_avg/10000000", 10'000'000, {"key"}, count_sum_avg, 256);
    registerPartials("BM_CountDistinct/10000000", 10'000'000, {}, {{"uniqExact", {"key"}, "u"}},
                     256);
    for (bool memory : {false, true})
    {
        benchmark::RegisterBenchmark(
            memory ? "BM_IdenticalTasks/memory" : "BM_IdenticalTasks/arithmetic",
            [=](benchmark::State& state) { runIdenticalTasks(state, memory); })
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1)
            ->Repetitions(3)
            ->UseRealTime();
    }
    registerMergePaths();
}

}  // namespace
}  // namespace granary

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    granary::registerAll();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
