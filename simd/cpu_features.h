#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace granary::simd
{

/// Instruction-set levels with a substring-search kernel, from narrowest to widest.
enum class SimdLevel : uint8_t
{
    /// Portable C++ (64-bit words, no intrinsics): the only level off x86-64.
    Scalar,
    /// 16-byte SSE2 compares; every x86-64 has them (the build baseline is x86-64-v2).
    Sse,
    /// 32-byte AVX2 compares.
    Avx2,
    /// 64-byte AVX-512BW compares into mask registers.
    Avx512,
};

/// Lower-case name: "scalar", "sse", "avx2" or "avx512".
std::string_view simdLevelName(SimdLevel level);

/// Inverse of simdLevelName; nullopt for any other text.
std::optional<SimdLevel> parseSimdLevel(std::string_view name);

/// Whether this CPU (by CPUID) and this build can run the kernels of `level`.
bool cpuSupports(SimdLevel level);

/// Widest level this CPU supports.
SimdLevel widestSupportedSimdLevel();

/// Level new searchers use by default: the widest supported one, lowered by the environment
/// variable GRANARY_SIMD=scalar|sse|avx2|avx512 if set (read once; a level the CPU lacks or an
/// unknown name is ignored with a warning on stderr).
SimdLevel defaultSimdLevel();

}  // namespace granary::simd
