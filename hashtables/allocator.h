#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

namespace granary
{

/// Allocator policy for cell arrays: zeroed memory, because a zero key marks an empty cell.
/// Large zeroed allocations come straight from fresh pages, so calloc costs no memset.
struct ZeroedAllocator
{
    static void* allocate(size_t bytes)
    {
        void* memory = std::calloc(1, bytes);
        if (memory == nullptr)
        {
            throw std::bad_alloc();
        }
        return memory;
    }
    static void deallocate(void* memory, size_t /*bytes*/) { std::free(memory); }
};

}  // namespace granary
