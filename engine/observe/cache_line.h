#pragma once

#include <cstddef>

namespace granary
{

/// Cache-line size of x86-64 and most AArch64 parts: the unit in which cores share memory, so
/// independently written values are kept this far apart.
inline constexpr size_t kCacheLineBytes = 64;

}  // namespace granary
