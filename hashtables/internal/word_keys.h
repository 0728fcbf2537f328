#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace granary::internal
{

/// Whether two keys held as `Words` 64-bit words are equal, word by word: the defaulted
/// comparison of a std::array compiles to a libc memcmp call per probe (and per empty-cell
/// test), which costs as much as the probe.
template <size_t Words>
bool equalWords(const std::array<uint64_t, Words>& left, const std::array<uint64_t, Words>& right)
{
    uint64_t difference = 0;
    for (size_t i = 0; i < Words; ++i)
    {
        difference |= left[i] ^ right[i];
    }
    return difference == 0;
}

}  // namespace granary::internal
