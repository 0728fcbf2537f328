#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

#include "alloc/memory_tracker.h"

namespace granary
{

/// STL allocator charged to the current query's memory tracker (which may refuse with an
/// exception), for containers that grow with a query's input. construct() without arguments
/// default-initialises, so a vector of bytes grows by resize() without zero-filling memory that
/// is written right after.
template <typename T>
class TrackedAllocator
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
    void construct(U* place) noexcept
    {
        ::new (static_cast<void*>(place)) U;
    }
    template <typename U, typename... Args>
    void construct(U* place, Args&&... args)
    {
        ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
    }

    template <typename U>
    bool operator==(const TrackedAllocator<U>&) const noexcept
    {
        return true;
    }
};

}  // namespace granary
