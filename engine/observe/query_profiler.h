#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace granary
{

/// One distinct stack in folded form, "outermost;...;innermost", and how often it was sampled.
struct FoldedStack
{
    std::string frames;
    uint64_t count = 0;
};

/// The stack samples of one query, gathered from every thread that worked for it (see
/// ProfilerThreadScope) and written as folded stacks, the input of flame-graph tools.
class QueryProfiler
{
public:
    /// 10 ms of a thread's CPU time between samples: 100 samples per CPU-second.
    static constexpr std::chrono::nanoseconds kDefaultPeriod = std::chrono::milliseconds(10);

    /// Samples a thread took for the query, innermost frame first, one stack after another.
    struct SampleBatch
    {
        std::vector<void*> frames;
        std::vector<uint32_t> depths;
        SampleBatch* next = nullptr;
    };

    explicit QueryProfiler(std::chrono::nanoseconds cpu_period = kDefaultPeriod);
    ~QueryProfiler();
    QueryProfiler(const QueryProfiler&) = delete;
    QueryProfiler& operator=(const QueryProfiler&) = delete;

    std::chrono::nanoseconds period() const { return period_; }

    /// Hands over a thread's samples when its task ends. Lock-free.
    void addSamples(std::unique_ptr<SampleBatch> batch);

    /// Samples received so far.
    uint64_t sampleCount();
    /// Every stack sampled so far, symbolized, most frequent first. Call once the query's
    /// thread scopes have ended, or samples of running tasks are not in yet.
    std::vector<FoldedStack> foldedStacks();
    /// Writes foldedStacks() as "frame;frame;frame count" lines, as flamegraph.pl reads them.
    void writeFoldedStacks(const std::filesystem::path& path);

private:
    /// Moves the batches handed over so far into stacks_; the caller holds mutex_.
    void collectLocked();

    const std::chrono::nanoseconds period_;
    /// Lock-free stack of batches: pushed by worker threads, taken whole by collectLocked.
    std::atomic<SampleBatch*> pending_{nullptr};
    std::mutex mutex_;
    /// Raw stacks (innermost first) and their counts.
    std::map<std::vector<void*>, uint64_t> stacks_;
    uint64_t sample_count_ = 0;
};

}  // namespace granary
