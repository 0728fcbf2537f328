#pragma once

#include <cstdint>
#include <optional>

#include "simd/cpu_features.h"

namespace granary::simd
{

/// How text comparisons treat letter case: LIKE is case-sensitive, ILIKE folds ASCII letters
/// only (bytes >= 0x80, including UTF-8 letters, always compare exactly).
enum class CaseSensitivity : uint8_t
{
    Sensitive,
    AsciiInsensitive,
};

/// Which two needle bytes the first filter of a substring search compares.
enum class FilterPairChoice : uint8_t
{
    /// needle[0] and needle[1], as in the classic two-character filter.
    FirstTwo,
    /// The pair least likely to match by chance in URL-like text, by a static byte-frequency
    /// table (for "google": the two 'g's, three bytes apart).
    RarestInUrls,
};

struct SearchOptions
{
    CaseSensitivity case_sensitivity = CaseSensitivity::Sensitive;
    /// Kernels to run; unset means defaultSimdLevel(). Must satisfy cpuSupports().
    std::optional<SimdLevel> simd_level;
    FilterPairChoice pair_choice = FilterPairChoice::RarestInUrls;
};

}  // namespace granary::simd
