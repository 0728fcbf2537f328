#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#include "alloc/memory_tracker.h"

namespace granary
{

/// Allocator policy for cell arrays: zeroed memory, because a zero key marks an empty cell.
/// Large zeroed allocations come straight from fresh pages, so calloc costs no memset.
struct ZeroedAllocator
{
    /// Charged to the current query's memory tracker, which may refuse with an exception.
    static void* allocate(size_t bytes)
    {
        trackAllocation(bytes);
        void* memory = std::calloc(1, bytes);
        if (memory == nullptr)
        {
            trackDeallocation(bytes);
            throw std::bad_alloc();
        }
        return memory;
    }
    static void deallocate(void* memory, size_t bytes)
    {
        trackDeallocation(bytes);
        std::free(memory);
    }
};

}  // namespace granary
