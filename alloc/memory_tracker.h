#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "granary/error.h"
#include "granary/memory_budget.h"

namespace granary
{

/// Thrown when an allocation would take a query past its memory limit (or a host's memory
/// budget refuses it): an Exception with code kMemoryLimitExceeded, so callers catch it like
/// any other error; the query's memory is freed as the stack unwinds.
class MemoryLimitExceeded : public Exception
{
public:
    MemoryLimitExceeded(size_t requested_bytes, size_t used_bytes, size_t limit_bytes);
    /// The host's budget refused `requested_bytes` with `used_bytes` in use.
    MemoryLimitExceeded(size_t requested_bytes, size_t used_bytes);

    size_t requestedBytes() const { return requested_bytes_; }
    size_t usedBytes() const { return used_bytes_; }
    size_t limitBytes() const { return limit_bytes_; }

private:
    size_t requested_bytes_;
    size_t used_bytes_;
    size_t limit_bytes_;
};

/// Counts the bytes a query holds in its big allocations (hash-table arrays, arena chunks)
/// and refuses an allocation that would pass the limit. Shared by the query's threads; the
/// counted allocations are large and rare, so one atomic is not a contention point.
class MemoryTracker
{
public:
    /// 0 means no limit: the tracker only measures.
    explicit MemoryTracker(size_t limit_bytes = 0) : limit_bytes_(limit_bytes) {}

    /// Asks `budget` (the host's; null: none) for every allocation too, after the limit.
    void setBudget(MemoryBudget* budget) { budget_ = budget; }
    /// Counts `bytes`, or throws MemoryLimitExceeded and counts nothing.
    void allocate(size_t bytes);
    void deallocate(size_t bytes)
    {
        used_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
        if (budget_ != nullptr)
        {
            budget_->release(bytes);
        }
    }

    size_t usedBytes() const { return used_bytes_.load(std::memory_order_relaxed); }
    size_t peakBytes() const { return peak_bytes_.load(std::memory_order_relaxed); }
    size_t limitBytes() const { return limit_bytes_; }

    /// The tracker of the query the calling thread works for, or nullptr.
    static MemoryTracker* current() { return current_; }

private:
    friend class MemoryTrackerScope;
    // constinit: no dynamic initialization, so other files read it without a TLS wrapper call.
    static constinit thread_local MemoryTracker* current_;

    const size_t limit_bytes_;
    MemoryBudget* budget_ = nullptr;
    std::atomic<size_t> used_bytes_{0};
    std::atomic<size_t> peak_bytes_{0};
};

/// Makes `tracker` the calling thread's current tracker until the scope ends (restoring the
/// previous one), so allocations by a task are charged to the query it works for.
class MemoryTrackerScope
{
public:
    explicit MemoryTrackerScope(MemoryTracker* tracker) : previous_(MemoryTracker::current_)
    {
        MemoryTracker::current_ = tracker;
    }
    ~MemoryTrackerScope() { MemoryTracker::current_ = previous_; }
    MemoryTrackerScope(const MemoryTrackerScope&) = delete;
    MemoryTrackerScope& operator=(const MemoryTrackerScope&) = delete;

private:
    MemoryTracker* previous_;
};

/// Bytes the allocator really reserves for a request of `bytes`: jemalloc rounds large
/// requests up to size classes (up to 25% more), which a limit must count.
size_t allocationSize(size_t bytes);

/// Charges the current thread's tracker, if any, with the real size of a `bytes` request:
/// the hook of every tracked allocator.
inline void trackAllocation(size_t bytes)
{
    if (MemoryTracker* tracker = MemoryTracker::current())
    {
        tracker->allocate(allocationSize(bytes));
    }
}
inline void trackDeallocation(size_t bytes)
{
    if (MemoryTracker* tracker = MemoryTracker::current())
    {
        tracker->deallocate(allocationSize(bytes));
    }
}

}  // namespace granary
