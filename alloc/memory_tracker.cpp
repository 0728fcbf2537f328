#include "alloc/memory_tracker.h"

// Weak, so that builds without jemalloc (sanitizers) link and count requested sizes.
extern "C" size_t nallocx(size_t size, int flags) __attribute__((weak));

namespace granary
{

constinit thread_local MemoryTracker* MemoryTracker::current_ = nullptr;

size_t allocationSize(size_t bytes)
{
    if (nallocx == nullptr || bytes == 0)
    {
        return bytes;
    }
    const size_t real = nallocx(bytes, 0);
    return real == 0 ? bytes : real;
}

namespace
{

std::string describeLimit(size_t requested_bytes, size_t used_bytes, size_t limit_bytes)
{
    return "memory limit exceeded: would use " + std::to_string(used_bytes + requested_bytes) +
           " bytes (allocating " + std::to_string(requested_bytes) + " with " +
           std::to_string(used_bytes) + " in use), limit is " + std::to_string(limit_bytes);
}

}  // namespace

MemoryLimitExceeded::MemoryLimitExceeded(size_t requested_bytes, size_t used_bytes,
                                         size_t limit_bytes)
    : Exception(ErrorCode::kMemoryLimitExceeded,
                describeLimit(requested_bytes, used_bytes, limit_bytes)),
      requested_bytes_(requested_bytes),
      used_bytes_(used_bytes),
      limit_bytes_(limit_bytes)
{
}

MemoryLimitExceeded::MemoryLimitExceeded(size_t requested_bytes, size_t used_bytes)
    : Exception(ErrorCode::kMemoryLimitExceeded,
                "memory limit exceeded: the host's memory budget refused " +
                    std::to_string(requested_bytes) + " bytes with " + std::to_string(used_bytes) +
                    " in use"),
      requested_bytes_(requested_bytes),
      used_bytes_(used_bytes),
      limit_bytes_(0)
{
}

void MemoryTracker::allocate(size_t bytes)
{
    const size_t after = used_bytes_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (limit_bytes_ != 0 && after > limit_bytes_)
    {
        used_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
        throw MemoryLimitExceeded(bytes, after - bytes, limit_bytes_);
    }
    if (budget_ != nullptr && !budget_->reserve(bytes))
    {
        used_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
        throw MemoryLimitExceeded(bytes, after - bytes);
    }
    size_t peak = peak_bytes_.load(std::memory_order_relaxed);
    while (after > peak &&
           !peak_bytes_.compare_exchange_weak(peak, after, std::memory_order_relaxed))
    {
    }
}

}  // namespace granary
