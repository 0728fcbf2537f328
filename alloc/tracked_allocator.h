#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#include "alloc/default_init_construct.h"
#include "alloc/memory_tracker.h"

namespace granary
{

/// STL allocator charged to the current query's memory tracker (which may refuse with an
/// exception), for containers that grow with a query's input; default-initialising construct().
template <typename T>
class TrackedAllocator : public DefaultInitConstruct
{
public:
    using value_type = T;

    TrackedAllocator() = default;
    template <typename U>
    TrackedAllocator(const TrackedAllocator<U>&) noexcept
    {
    }

    T* allocate(size_t count)
    {
        const size_t bytes = count * sizeof(T);
        trackAllocation(bytes);
        void* memory = std::malloc(bytes);
        if (memory == nullptr)
        {
            trackDeallocation(bytes);
            throw std::bad_alloc();
        }
        return static_cast<T*>(memory);
    }
    void deallocate(T* memory, size_t count) noexcept
    {
        trackDeallocation(count * sizeof(T));
        std::free(memory);
    }

    template <typename U>
    bool operator==(const TrackedAllocator<U>&) const noexcept
    {
        return true;
    }
};

}  // namespace granary
