#include "simd/cpu_features.h"

#include <array>
#include <cstdio>
#include <cstdlib>

namespace granary::simd
{
namespace
{

constexpr std::array<std::string_view, 4> kLevelNames = {"scalar", "sse", "avx2", "avx512"};

SimdLevel levelFromEnvironment()
{
    const SimdLevel widest = widestSupportedSimdLevel();
    const char* requested = std::getenv("GRANARY_SIMD");
    if (requested == nullptr || *requested == '\0')
    {
        return widest;
    }
    const std::optional<SimdLevel> level = parseSimdLevel(requested);
    if (!level)
    {
        std::fprintf(stderr,
                     "granary: ignoring GRANARY_SIMD=%s (use scalar, sse, avx2 or avx512)\n",
                     requested);
        return widest;
    }
    if (!cpuSupports(*level))
    {
        std::fprintf(stderr, "granary: ignoring GRANARY_SIMD=%s: this CPU lacks it\n", requested);
        return widest;
    }
    return *level;
}

}  // namespace

std::string_view simdLevelName(SimdLevel level)
{
    return kLevelNames[static_cast<size_t>(level)];
}

std::optional<SimdLevel> parseSimdLevel(std::string_view name)
{
    for (size_t i = 0; i < kLevelNames.size(); ++i)
    {
        if (kLevelNames[i] == name)
        {
            return static_cast<SimdLevel>(i);
        }
    }
    return std::nullopt;
}

bool cpuSupports(SimdLevel level)
{
#if defined(__x86_64__)
    switch (level)
    {
        case SimdLevel::Scalar:
        case SimdLevel::Sse:
            return true;
        case SimdLevel::Avx2:
            return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
        case SimdLevel::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2");
    }
    return false;
#else
    return level == SimdLevel::Scalar;
#endif
}

SimdLevel widestSupportedSimdLevel()
{
    for (SimdLevel level : {SimdLevel::Avx512, SimdLevel::Avx2, SimdLevel::Sse})
    {
        if (cpuSupports(level))
        {
            return level;
        }
    }
    return SimdLevel::Scalar;
}

SimdLevel defaultSimdLevel()
{
    static const SimdLevel level = levelFromEnvironment();
    return level;
}

}  // namespace granary::simd
