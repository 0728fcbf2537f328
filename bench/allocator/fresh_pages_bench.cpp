// What the machine charges for memory a process touches for the first time, against
// rewriting memory it has already touched, in the same run: every new hash table, arena chunk
// and result column pays the first, and a task that pays it for megabytes becomes the longest
// task of its phase (docs/aggregation.md, "Statistics: work and span"). On a virtual machine
// whose host takes freed guest memory back, the first touch can cost far more than the
// kernel's zeroing alone.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace
{

constexpr size_t kHugePageBytes = size_t{2} << 20;
constexpr size_t kBasePageBytes = 4096;
/// Touched per iteration: 128 huge pages, far beyond the caches, small beside the machine.
constexpr size_t kRegionBytes = 256 * (size_t{1} << 20);

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Each iteration maps a fresh region (huge pages or base pages), writes one byte per base
/// page (the first touch, timed as the iteration), then rewrites the whole region (memory
/// already mapped: the baseline) and unmaps it.
void freshPages(benchmark::State& state, bool huge_pages)
{
    double first_touch_seconds = 0;
    double first_iteration_seconds = -1;
    double rewrite_seconds = 0;
    for (auto _ : state)
    {
        void* mapping = mmap(nullptr, kRegionBytes + kHugePageBytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED)
        {
            state.SkipWithError("mmap failed");
            return;
        }
        const auto start = reinterpret_cast<uintptr_t>(mapping);
        auto* region =
            reinterpret_cast<char*>((start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes);
        madvise(region, kRegionBytes, huge_pages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);

        const auto touch_start = std::chrono::steady_clock::now();
        for (size_t offset = 0; offset < kRegionBytes; offset += kBasePageBytes)
        {
            region[offset] = 1;
        }
        const double touch = secondsSince(touch_start);
        benchmark::ClobberMemory();

        const auto rewrite_start = std::chrono::steady_clock::now();
        std::memset(region, 2, kRegionBytes);
        benchmark::ClobberMemory();
        rewrite_seconds += secondsSince(rewrite_start);

        munmap(mapping, kRegionBytes + kHugePageBytes);
        if (first_iteration_seconds < 0)
        {
            first_iteration_seconds = touch;
        }
        first_touch_seconds += touch;
        state.SetIterationTime(touch);
    }
    const double iterations = static_cast<double>(state.iterations());
    const double huge_pages_per_region = static_cast<double>(kRegionBytes / kHugePageBytes);
    auto per_2mib_ms = [&](double seconds) { return seconds / huge_pages_per_region * 1e3; };
    state.counters["first_touch_ms/2MiB"] = per_2mib_ms(first_touch_seconds / iterations);
    // The first iteration apart: later ones may get back the pages the previous one freed.
    state.counters["first_iteration_ms/2MiB"] = per_2mib_ms(first_iteration_seconds);
    state.counters["rewrite_ms/2MiB"] = per_2mib_ms(rewrite_seconds / iterations);
    state.counters["first_touch/rewrite"] = first_touch_seconds / rewrite_seconds;
}

BENCHMARK_CAPTURE(freshPages, huge_pages, true)
    ->Name("BM_FreshPages/huge_pages")
    ->Iterations(4)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(freshPages, base_pages, false)
    ->Name("BM_FreshPages/base_pages")
    ->Iterations(4)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
