// ProfileEvents strategies under contention: packed atomics, cache-line-aligned atomics and
// per-thread blocks, every thread attached to one query as the workers of a query are.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "engine/observe/profile_events.h"

namespace granary
{
namespace
{

/// Increments per benchmark iteration, so the loop's own cost is negligible.
constexpr int64_t kIncrementsPerIteration = 1000;
/// Packed 8-byte counters: this many consecutive events share one cache line.
constexpr size_t kEventsPerCacheLine = kCacheLineBytes / sizeof(uint64_t);

/// Each thread bumps its own event (false sharing when counters are packed) or all threads bump
/// one event (true sharing, which alignment cannot help).
enum class EventChoice
{
    kOwnEvent,
    kSameEvent,
};

template <typename Strategy, EventChoice Choice>
void benchmarkCounters(benchmark::State& state)
{
    static BasicQueryProfileEvents<Strategy> query;
    BasicProfileEventsThreadScope<Strategy> scope(query);
    const ProfileEvent event =
        Choice == EventChoice::kOwnEvent
            ? static_cast<ProfileEvent>(static_cast<size_t>(state.thread_index()) %
                                        kEventsPerCacheLine)
            : ProfileEvent::RowsRead;
    for (auto _ : state)
    {
        for (int64_t i = 0; i < kIncrementsPerIteration; ++i)
        {
            BasicProfileEvents<Strategy>::increment(event);
        }
    }
    state.SetItemsProcessed(state.iterations() * kIncrementsPerIteration);
}

template <EventChoice Choice>
void registerCounterBenchmarks(const char* family)
{
    const std::string prefix = family;
    const auto add = [&](const std::string& name, auto function)
    {
        benchmark::RegisterBenchmark((prefix + "/" + name).c_str(), function)
            ->Threads(1)
            ->Threads(2)
            ->Threads(8)
            ->UseRealTime();
    };
    add("packed", benchmarkCounters<PackedAtomicCounters, Choice>);
    add("aligned", benchmarkCounters<AlignedAtomicCounters, Choice>);
    add("per_thread", benchmarkCounters<PerThreadCounters, Choice>);
}

const bool kRegistered = []
{
    registerCounterBenchmarks<EventChoice::kOwnEvent>("BM_Counters");
    registerCounterBenchmarks<EventChoice::kSameEvent>("BM_CountersSameEvent");
    return true;
}();

}  // namespace
}  // namespace granary
