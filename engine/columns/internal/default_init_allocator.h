#pragma once

#include <memory>

#include "alloc/default_init_construct.h"

namespace granary::internal
{

/// std::allocator whose value-initialising construct() default-initialises instead, so that a
/// vector of bytes grows by resize() without zero-filling memory that is written right after
/// (appending a value was a resize, an 8-byte memset call and a copy).
template <typename T>
class DefaultInitAllocator : public std::allocator<T>, public DefaultInitConstruct
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
};

}  // namespace granary::internal
