#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "simd/search_options.h"

namespace granary::simd::internal
{

/// OR-ing this bit into an ASCII letter lower-cases it; matching ignores case by OR-ing it into
/// the haystack byte wherever the needle byte is a letter, then comparing with the lower case.
constexpr uint8_t kAsciiCaseBit = 0x20;

inline bool isAsciiLetter(uint8_t byte)
{
    return (byte | kAsciiCaseBit) >= 'a' && (byte | kAsciiCaseBit) <= 'z';
}

/// Everything the kernels need to look for one needle, prepared once per needle.
struct SearchPlan
{
    /// The needle, its ASCII letters lower-cased when matching ignores case.
    std::string needle;
    /// Per needle byte: kAsciiCaseBit to OR into the haystack byte before comparing, else 0.
    std::string fold;
    /// Needle positions the first filter compares: first < second, or both 0 for one byte.
    size_t first_position = 0;
    size_t second_position = 0;
    /// The needle's first min(8, size) bytes as a little-endian word, with their fold bits and
    /// a mask of the bytes that belong to the needle: one compare verifies short needles.
    uint64_t head_needle = 0;
    uint64_t head_fold = 0;
    uint64_t head_mask = 0;
};

/// Prepares the plan for `needle`. Kernels never see an empty needle: callers answer it directly.
SearchPlan makeSearchPlan(std::string_view needle, CaseSensitivity case_sensitivity,
                          FilterPairChoice pair_choice);

}  // namespace granary::simd::internal
