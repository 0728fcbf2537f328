#pragma once

#include <array>
#include <cstdint>

namespace granary::simd::internal
{

/// Approximate occurrences of each byte per 10,000 bytes of URLs (web-analytics data such as
/// ClickBench's `hits`); never 0, so that products of two frequencies still rank rare pairs.
extern const std::array<uint16_t, 256> kUrlByteFrequency;

}  // namespace granary::simd::internal
