// Query condition cache strategies: exclusive lock always, double-checked shared/exclusive
// locking, and atomic bit updates under the shared lock.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/exec/query_condition_cache.h"

namespace granary
{
namespace
{

/// Parts and filter conditions of the read-mostly workload: 256 hot entries.
constexpr uint64_t kParts = 64;
constexpr uint64_t kConditions = 4;
constexpr size_t kGranulesPerPart = 1024;
/// A scan task reads this many granules (a mark range) of a part, then records its findings.
constexpr size_t kGranulesPerTask = 32;
constexpr size_t kTasksPerPart = kGranulesPerPart / kGranulesPerTask;
/// In the read-mostly workload one task in this many meets a new part, whose entry is created.
constexpr uint64_t kNewPartEvery = 128;
/// Room for the hot entries and some new ones, so creating entries also evicts.
constexpr size_t kCacheBytes = 256 * 1024;
constexpr uint64_t kTable = 1;

/// Granules of a task's range in which the filter matched nothing: the same for every task, so
/// after the first scan a task's write changes nothing (the seed's common case).
std::vector<GranuleRange> noMatchRanges(size_t task)
{
    const size_t begin = task * kGranulesPerTask;
    return {{begin, begin + 10}, {begin + 16, begin + 30}};
}

const std::vector<std::vector<GranuleRange>>& allNoMatchRanges()
{
    static const auto ranges = []
    {
        std::vector<std::vector<GranuleRange>> all;
        for (size_t task = 0; task < kTasksPerPart; ++task)
        {
            all.push_back(noMatchRanges(task));
        }
        return all;
    }();
    return ranges;
}

/// One scan task: look the part up, read its task's bits, record the no-match ranges.
template <typename Cache>
void runTask(Cache& cache, const QueryConditionCacheKey& key, size_t task)
{
    size_t may_match = 0;
    if (auto entry = cache.read(key))
    {
        for (size_t g = task * kGranulesPerTask; g < (task + 1) * kGranulesPerTask; ++g)
        {
            may_match += entry->mayMatch(g);
        }
    }
    benchmark::DoNotOptimize(may_match);
    cache.write(key, kGranulesPerPart, allNoMatchRanges()[task], task + 1 == kTasksPerPart);
}

template <ConditionCacheUpdate Update>
using Cache = BasicQueryConditionCache<Update>;

/// Set up by thread 0 before the timed loop (Google Benchmark starts all threads' loops
/// together) and used by every thread.
template <ConditionCacheUpdate Update>
std::unique_ptr<Cache<Update>>& sharedCache()
{
    static std::unique_ptr<Cache<Update>> cache;
    return cache;
}

/// Part ids never used before, so that "new part" entries are really new in every run.
std::atomic<uint64_t> g_next_new_part{kParts};

template <ConditionCacheUpdate Update>
void benchmarkReadMostly(benchmark::State& state)
{
    if (state.thread_index() == 0)
    {
        sharedCache<Update>() = std::make_unique<Cache<Update>>(kCacheBytes);
        for (uint64_t part = 0; part < kParts; ++part)
        {
            for (uint64_t condition = 0; condition < kConditions; ++condition)
            {
                for (size_t task = 0; task < kTasksPerPart; ++task)
                {
                    runTask(*sharedCache<Update>(), {kTable, part, 0, condition}, task);
                }
            }
        }
    }
    std::mt19937_64 random(static_cast<uint64_t>(state.thread_index()) + 1);
    uint64_t tasks = 0;
    for (auto _ : state)
    {
        Cache<Update>& cache = *sharedCache<Update>();
        const uint64_t draw = random();
        const size_t task = draw % kTasksPerPart;
        if (++tasks % kNewPartEvery == 0)
        {
            runTask(cache, {kTable, g_next_new_part.fetch_add(1), 0, 0}, task);
            continue;
        }
        runTask(cache, {kTable, (draw >> 8) % kParts, 0, (draw >> 16) % kConditions}, task);
    }
    state.SetItemsProcessed(state.iterations());
}

/// The first query over new parts: threads share the parts, each thread scanning every task of
/// a part in its own order, so writes often change bits and entries are created all the time.
template <ConditionCacheUpdate Update>
void benchmarkFirstScan(benchmark::State& state)
{
    static std::atomic<uint64_t> first_part{0};
    if (state.thread_index() == 0)
    {
        sharedCache<Update>() = std::make_unique<Cache<Update>>(kCacheBytes);
        first_part.store(g_next_new_part.fetch_add(uint64_t{1} << 32));
    }
    uint64_t step = 0;
    for (auto _ : state)
    {
        const uint64_t part = first_part.load(std::memory_order_relaxed) + step / kTasksPerPart;
        const size_t task = (step + static_cast<uint64_t>(state.thread_index())) % kTasksPerPart;
        runTask(*sharedCache<Update>(), {kTable, part, 0, 0}, task);
        ++step;
    }
    state.SetItemsProcessed(state.iterations());
}

void registerStrategy(const std::string& name, benchmark::internal::Function* read_mostly,
                      benchmark::internal::Function* first_scan)
{
    benchmark::RegisterBenchmark(("BM_ConditionCache/" + name).c_str(), read_mostly)
        ->Threads(1)
        ->Threads(2)
        ->Threads(8)
        ->Threads(64)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_ConditionCacheFirstScan/" + name).c_str(), first_scan)
        ->Threads(1)
        ->Threads(2)
        ->Threads(8)
        ->UseRealTime();
}

const bool kRegistered = []
{
    using enum ConditionCacheUpdate;
    registerStrategy("exclusive", benchmarkReadMostly<kExclusiveLock>,
                     benchmarkFirstScan<kExclusiveLock>);
    registerStrategy("double_checked", benchmarkReadMostly<kDoubleChecked>,
                     benchmarkFirstScan<kDoubleChecked>);
    registerStrategy("atomic", benchmarkReadMostly<kAtomic>, benchmarkFirstScan<kAtomic>);
    return true;
}();

}  // namespace
}  // namespace granary
