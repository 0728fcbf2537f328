// Attaching a worker thread to a profiled query and detaching it, once per task: a timer
// created and deleted per attach under a global mutex, one timer per thread armed and disarmed
// per task, or one timer per thread left running between tasks and stopped lazily.
#include <benchmark/benchmark.h>

#include <chrono>

#include "engine/observe/profiler_thread_scope.h"
#include "engine/observe/query_profiler.h"

namespace granary
{
namespace
{

/// Long enough that no sample is taken while benchmarking: only attach and detach are timed.
constexpr auto kQuietPeriod = std::chrono::seconds(10);

template <typename TimerPolicy>
void benchmarkProfilerAttach(benchmark::State& state)
{
    static QueryProfiler query(kQuietPeriod);
    // Worker threads live long: the per-thread timer's one-time creation is not per task.
    {
        BasicProfilerThreadScope<TimerPolicy> warm_up(query);
    }
    for (auto _ : state)
    {
        BasicProfilerThreadScope<TimerPolicy> scope(query);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations());
}

BENCHMARK(benchmarkProfilerAttach<PerQueryTimer>)
    ->Name("BM_ProfilerAttach/timer_per_query")
    ->Threads(2)
    ->Threads(64)
    ->UseRealTime();
BENCHMARK(benchmarkProfilerAttach<PerThreadTimer>)
    ->Name("BM_ProfilerAttach/timer_per_thread")
    ->Threads(2)
    ->Threads(64)
    ->UseRealTime();
BENCHMARK(benchmarkProfilerAttach<LazyPerThreadTimer>)
    ->Name("BM_ProfilerAttach/timer_per_thread_lazy")
    ->Threads(2)
    ->Threads(64)
    ->UseRealTime();

}  // namespace
}  // namespace granary
