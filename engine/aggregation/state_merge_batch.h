#pragma once

#include <array>
#include <cstddef>

#include "engine/aggregation/aggregate_layout.h"

namespace granary
{

/// Collects the (target, source) state pairs of a table merge and merges them a batch at a
/// time. States live in arenas in the order their groups appeared, so each pair is two cache
/// misses at random addresses: both are prefetched when the pair is collected and merged a
/// batch later, so that the misses overlap instead of each costing the full memory latency,
/// and each function merges the batch in one call.
class StateMergeBatch
{
public:
    /// Pairs in flight: enough rows of the merge loop between a prefetch and its use to
    /// hide the memory latency, few enough that the prefetched lines stay in L1/L2.
    static constexpr size_t kPairs = 64;

    StateMergeBatch(const AggregateLayout& layout, MergeContext& context)
        : layout_(layout), context_(context)
    {
    }
    StateMergeBatch(const StateMergeBatch&) = delete;
    StateMergeBatch& operator=(const StateMergeBatch&) = delete;

    void add(char* target, char* source)
    {
        __builtin_prefetch(target, 1);
        __builtin_prefetch(source);
        targets_[count_] = target;
        sources_[count_] = source;
        if (++count_ == kPairs)
        {
            flush();
        }
    }

    /// Merges the pairs collected so far; call once the table merge is done.
    void flush()
    {
        if (count_ > 0)
        {
            const size_t count = count_;
            count_ = 0;
            layout_.mergeStatesBatch(targets_.data(), sources_.data(), count, context_);
        }
    }

private:
    const AggregateLayout& layout_;
    MergeContext& context_;
    std::array<char*, kPairs> targets_;
    std::array<char*, kPairs> sources_;
    size_t count_ = 0;
};

}  // namespace granary
