#pragma once

#include <memory>
#include <new>
#include <utility>

namespace granary::internal
{

/// std::allocator whose value-initialising construct() default-initialises instead, so that a
/// vector of bytes grows by resize() without zero-filling memory that is written right after
/// (appending a value was a resize, an 8-byte memset call and a copy).
template <typename T>
class DefaultInitAllocator : public std::allocator<T>
{
public:
    template <typename U>
    struct rebind
    {
        using other = DefaultInitAllocator<U>;
    };

    DefaultInitAllocator() = default;
    template <typename U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept
    {
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
};

}  // namespace granary::internal
