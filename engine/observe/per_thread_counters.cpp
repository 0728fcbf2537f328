#include "engine/observe/per_thread_counters.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace granary
{
namespace
{

struct ThreadBlockRegistry
{
    std::mutex mutex;
    std::vector<PerThreadCounters::ThreadBlock*> blocks;
    /// Lifetime counts of threads that have exited.
    ProfileEventCounts retired;
};

/// Never destroyed: threads may exit, and count, after static destructors have run.
ThreadBlockRegistry& registry()
{
    static ThreadBlockRegistry* const instance = new ThreadBlockRegistry;
    return *instance;
}

uint64_t sinceBaseline(const PerThreadCounters::ThreadBlock& block, size_t index)
{
    const uint64_t lifetime = block.lifetime[index].load(std::memory_order_relaxed);
    const uint64_t baseline = block.baseline[index].load(std::memory_order_relaxed);
    // A reader racing with a re-attach may see the new baseline before the matching lifetime.
    return lifetime > baseline ? lifetime - baseline : 0;
}

}  // namespace

PerThreadCounters::ThreadBlock* PerThreadCounters::registerThisThread()
{
    /// Set once the retirer has run: a later increment (from another thread_local's destructor)
    /// gets a block that stays registered, so its counts are never lost.
    static constinit thread_local bool t_exited = false;

    /// At thread exit, moves the block's counts into the retired totals and frees it.
    struct BlockRetirer
    {
        ThreadBlock* block = nullptr;
        ~BlockRetirer()
        {
            t_exited = true;
            t_block = nullptr;
            ThreadBlockRegistry& blocks = registry();
            std::lock_guard lock(blocks.mutex);
            for (size_t i = 0; i < kProfileEventCount; ++i)
            {
                blocks.retired.values[i] += block->lifetime[i].load(std::memory_order_relaxed);
            }
            std::erase(blocks.blocks, block);
            delete block;
        }
    };
    auto* block = new ThreadBlock;
    {
        ThreadBlockRegistry& blocks = registry();
        std::lock_guard lock(blocks.mutex);
        blocks.blocks.push_back(block);
    }
    if (!t_exited)
    {
        thread_local BlockRetirer retirer;
        retirer.block = block;
    }
    t_block = block;
    return block;
}

PerThreadCounters::QueryCounters* PerThreadCounters::attach(QueryCounters* query)
{
    ThreadBlock* block = t_block != nullptr ? t_block : registerThisThread();
    QueryCounters* previous = block->query.load(std::memory_order_relaxed);
    // Detach before folding: a reader sums folded counts first and attached blocks second, so
    // it may miss a task that is just folding but never counts it twice.
    block->query.store(nullptr);
    for (size_t i = 0; i < kProfileEventCount; ++i)
    {
        const uint64_t lifetime = block->lifetime[i].load(std::memory_order_relaxed);
        const uint64_t delta = lifetime - block->baseline[i].load(std::memory_order_relaxed);
        if (previous != nullptr && delta != 0)
        {
            previous->folded_[i].fetch_add(delta);
        }
        block->baseline[i].store(lifetime, std::memory_order_relaxed);
    }
    block->query.store(query);
    return previous;
}

ProfileEventCounts PerThreadCounters::read(const QueryCounters& query)
{
    ProfileEventCounts counts;
    for (size_t i = 0; i < kProfileEventCount; ++i)
    {
        counts.values[i] = query.folded_[i].load();
    }
    ThreadBlockRegistry& blocks = registry();
    std::lock_guard lock(blocks.mutex);
    for (const ThreadBlock* block : blocks.blocks)
    {
        if (block->query.load() != &query)
        {
            continue;
        }
        for (size_t i = 0; i < kProfileEventCount; ++i)
        {
            counts.values[i] += sinceBaseline(*block, i);
        }
    }
    return counts;
}

ProfileEventCounts PerThreadCounters::readGlobal()
{
    ThreadBlockRegistry& blocks = registry();
    std::lock_guard lock(blocks.mutex);
    ProfileEventCounts counts = blocks.retired;
    for (const ThreadBlock* block : blocks.blocks)
    {
        for (size_t i = 0; i < kProfileEventCount; ++i)
        {
            counts.values[i] += block->lifetime[i].load(std::memory_order_relaxed);
        }
    }
    return counts;
}

}  // namespace granary
