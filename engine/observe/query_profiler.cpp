#include "engine/observe/query_profiler.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "engine/observe/profiler_thread_state.h"
#include "engine/observe/stack_symbolizer.h"

namespace granary
{

QueryProfiler::QueryProfiler(std::chrono::nanoseconds cpu_period) : period_(cpu_period)
{
    if (cpu_period <= std::chrono::nanoseconds::zero())
    {
        throw std::invalid_argument("QueryProfiler: the sampling period must be positive");
    }
    installProfilerSignalHandler();
}

QueryProfiler::~QueryProfiler()
{
    std::unique_ptr<SampleBatch> batch(pending_.exchange(nullptr));
    while (batch)
    {
        batch.reset(batch->next);
    }
}

void QueryProfiler::addSamples(std::unique_ptr<SampleBatch> batch)
{
    SampleBatch* node = batch.release();
    node->next = pending_.load(std::memory_order_relaxed);
    while (!pending_.compare_exchange_weak(node->next, node, std::memory_order_release,
                                           std::memory_order_relaxed))
    {
    }
}

void QueryProfiler::collectLocked()
{
    std::unique_ptr<SampleBatch> batch(pending_.exchange(nullptr, std::memory_order_acquire));
    while (batch)
    {
        auto frame = batch->frames.begin();
        for (uint32_t depth : batch->depths)
        {
            ++stacks_[std::vector<void*>(frame, frame + depth)];
            frame += depth;
        }
        sample_count_ += batch->depths.size();
        batch.reset(batch->next);
    }
}

uint64_t QueryProfiler::sampleCount()
{
    std::lock_guard lock(mutex_);
    collectLocked();
    return sample_count_;
}

std::vector<FoldedStack> QueryProfiler::foldedStacks()
{
    std::map<std::string, uint64_t> folded;
    {
        std::lock_guard lock(mutex_);
        collectLocked();
        StackSymbolizer symbolizer;
        for (const auto& [frames, count] : stacks_)
        {
            std::string line;
            // Folded stacks list the outermost frame first; samples store the innermost first.
            for (size_t i = frames.size(); i-- > 0;)
            {
                line += symbolizer.frameName(frames[i], /*is_return_address=*/i != 0);
                if (i != 0)
                {
                    line += ';';
                }
            }
            folded[line] += count;
        }
    }
    std::vector<FoldedStack> stacks;
    stacks.reserve(folded.size());
    for (auto& [frames, count] : folded)
    {
        stacks.push_back({frames, count});
    }
    std::stable_sort(stacks.begin(), stacks.end(),
                     [](const FoldedStack& a, const FoldedStack& b) { return a.count > b.count; });
    return stacks;
}

void QueryProfiler::writeFoldedStacks(const std::filesystem::path& path)
{
    std::ofstream out(path);
    for (const FoldedStack& stack : foldedStacks())
    {
        out << stack.frames << ' ' << stack.count << '\n';
    }
    if (!out.flush())
    {
        throw std::runtime_error("QueryProfiler: cannot write folded stacks to " + path.string());
    }
}

}  // namespace granary
