#pragma once

#include <cstddef>
#include <cstring>
#include <new>

#include "alloc/huge_pages.h"
#include "alloc/memory_tracker.h"

namespace granary
{

/// Memory for cell arrays whose cells the table initializes itself, charged to the current
/// query's memory tracker (which may refuse with an exception).
struct UninitializedAllocator
{
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
        adviseHugePages(memory, bytes);  // Before the first writes fault the pages in.
        return memory;
    }
    static void deallocate(void* memory, size_t bytes)
    {
        trackDeallocation(bytes);
        ::operator delete(memory, bytes);
    }
};

/// Allocator policy for cell arrays: zeroed memory, because a zero key marks an empty cell.
/// Zeroed with memset rather than calloc: for calloc, jemalloc 5.3 zeroes memory that an earlier
/// table freed by dropping its pages (MADV_DONTNEED), so a table reusing the last query's memory
/// faults every page in again; memset rewrites resident pages at memory bandwidth. The memory
/// comes from operator new, since compilers turn malloc followed by memset into calloc.
struct ZeroedAllocator
{
    static void* allocate(size_t bytes)
    {
        return std::memset(UninitializedAllocator::allocate(bytes), 0, bytes);
    }
    static void deallocate(void* memory, size_t bytes)
    {
        UninitializedAllocator::deallocate(memory, bytes);
    }
};

}  // namespace granary
