#pragma once

// Memory a host lends a query, and may refuse.

#include <cstddef>

namespace granary
{

/// A host's account of memory. Granary reserves its large allocations (hash tables, arenas,
/// buffered rows) here before making them and releases them when freed; a refusal ends the
/// query with Exception(ErrorCode::kMemoryLimitExceeded) after everything it held is freed.
/// Called from any of the query's threads at once.
class MemoryBudget
{
public:
    virtual ~MemoryBudget() = default;

    /// Asks for `bytes` more; false refuses.
    virtual bool reserve(size_t bytes) = 0;
    /// Returns `bytes` reserved earlier.
    virtual void release(size_t bytes) noexcept = 0;
};

}  // namespace granary
