// Memory allocated on one pool of threads and freed on another (seed 002): glibc's free takes
// the lock of the arena that allocated the block, so allocating and freeing threads contend.
// Built twice from this source: with jemalloc (cross_thread_free) and with plain glibc malloc
// (cross_thread_free_glibc); compare_cross_thread_free.sh prints the two side by side.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <thread>

#include "engine/observe/cache_line.h"

namespace
{
using granary::kCacheLineBytes;

/// Blocks handed from an allocating thread to a freeing thread at once.
constexpr size_t kBatchObjects = 256;
/// Batches in flight between one pair of threads: enough for either side to run a whole time
/// slice without waiting when the two share a core.
constexpr size_t kChannelSlots = 64;
/// Small-object sizes, as in row batches and strings: the sizes thread caches serve.
constexpr std::array<size_t, 9> kObjectSizes = {16, 32, 48, 64, 96, 128, 256, 512, 1024};
/// Most threads a benchmark runs with: half allocate, half free.
constexpr size_t kMaxThreads = 16;

struct Batch
{
    std::array<void*, kBatchObjects> objects{};
};

/// Batches from one allocating thread to one freeing thread: a single-producer
/// single-consumer ring, with waiting threads yielding the (possibly shared) core.
class BatchChannel
{
public:
    Batch& waitForEmptySlot()
    {
        const uint64_t head = head_.load(std::memory_order_relaxed);
        while (head - tail_.load(std::memory_order_acquire) == kChannelSlots)
        {
            std::this_thread::yield();
        }
        return slots_[head % kChannelSlots];
    }
    void publish() { head_.fetch_add(1, std::memory_order_release); }

    Batch& waitForBatch()
    {
        const uint64_t tail = tail_.load(std::memory_order_relaxed);
        while (head_.load(std::memory_order_acquire) == tail)
        {
            std::this_thread::yield();
        }
        return slots_[tail % kChannelSlots];
    }
    void release() { tail_.fetch_add(1, std::memory_order_release); }

private:
    std::array<Batch, kChannelSlots> slots_;
    alignas(kCacheLineBytes) std::atomic<uint64_t> head_{0};
    alignas(kCacheLineBytes) std::atomic<uint64_t> tail_{0};
};

std::array<BatchChannel, kMaxThreads / 2> g_channels;

void allocateBatch(Batch& batch, uint64_t& random)
{
    for (void*& object : batch.objects)
    {
        random = random * 6364136223846793005ULL + 1442695040888963407ULL;
        object = std::malloc(kObjectSizes[(random >> 33) % kObjectSizes.size()]);
        *static_cast<char*>(object) = 1;
    }
}

void freeBatch(Batch& batch)
{
    for (void* object : batch.objects)
    {
        std::free(object);
    }
}

/// Even threads allocate, each odd thread frees what the even thread before it allocated.
void BM_CrossThreadFree(benchmark::State& state)
{
    const bool allocates = state.thread_index() % 2 == 0;
    BatchChannel& channel = g_channels[static_cast<size_t>(state.thread_index()) / 2];
    uint64_t random = static_cast<uint64_t>(state.thread_index()) + 1;
    for (auto _ : state)
    {
        if (allocates)
        {
            allocateBatch(channel.waitForEmptySlot(), random);
            channel.publish();
        }
        else
        {
            freeBatch(channel.waitForBatch());
            channel.release();
        }
    }
    // Items are blocks allocated and freed, counted once, by the thread that allocated them.
    state.SetItemsProcessed(allocates ? state.iterations() * kBatchObjects : 0);
}

/// The baseline: every thread frees what it allocated.
void BM_SameThreadFree(benchmark::State& state)
{
    Batch batch;
    uint64_t random = static_cast<uint64_t>(state.thread_index()) + 1;
    for (auto _ : state)
    {
        allocateBatch(batch, random);
        benchmark::DoNotOptimize(batch.objects.data());
        freeBatch(batch);
    }
    state.SetItemsProcessed(state.iterations() * kBatchObjects);
}

BENCHMARK(BM_CrossThreadFree)->ThreadRange(2, kMaxThreads)->UseRealTime();
BENCHMARK(BM_SameThreadFree)->ThreadRange(2, kMaxThreads)->UseRealTime();

/// jemalloc exports mallctl; glibc malloc does not.
const bool kAllocatorNamed = []
{
    benchmark::AddCustomContext("allocator",
                                dlsym(RTLD_DEFAULT, "mallctl") != nullptr ? "jemalloc" : "glibc");
    return true;
}();

}  // namespace
