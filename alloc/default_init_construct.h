#pragma once

#include <new>
#include <utility>

namespace granary
{

/// construct() for allocators whose construction without arguments default-initialises
/// instead of value-initialising, so that a vector of bytes grows by resize() without
/// zero-filling memory that is written right after.
struct DefaultInitConstruct
{
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
};

}  // namespace granary
