#pragma once

#include <cstddef>
#include <cstring>
#include <new>

#include "alloc/huge_pages.h"
#include "alloc/memory_tracker.h"

namespace granary
{

/// Allocator policy for cell arrays: zeroed memory, because a zero key marks an empty cell.
/// Zeroed with memset rather than calloc: for calloc, jemalloc 5.3 zeroes memory that an earlier
/// table freed by dropping its pages (MADV_DONTNEED), so a table reusing the last query's memory
/// faults every page in again; memset rewrites resident pages at memory bandwidth. The memory
/// comes from operator new, since compilers turn malloc followed by memset into calloc.
struct ZeroedAllocator
{
    /// Charged to the current query's memory tracker, which may refuse with an exception.
    static void* allocate(size_t bytes)
    {
        trackAllocation(bytes);
        void* memory = nullptr;
        try
        {
            memory = ::operator new(bytes);
        }
        catch (...)
        {
            trackDeallocation(bytes);
            throw;
        }
        adviseHugePages(memory, bytes);  // Before the memset faults the pages in.
        return std::memset(memory, 0, bytes);
    }
    static void deallocate(void* memory, size_t bytes)
    {
        trackDeallocation(bytes);
        ::operator delete(memory, bytes);
    }
};

}  // namespace granary
