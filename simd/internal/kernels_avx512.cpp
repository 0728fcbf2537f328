// AVX-512BW kernels; simd/CMakeLists.txt compiles this file alone with the AVX-512 flags, and
// they run only where cpuSupports(SimdLevel::Avx512).

#include <immintrin.h>

#include "simd/internal/scan_kernel.h"

namespace granary::simd::internal
{
namespace
{

struct Avx512Vector
{
    using Register = __m512i;
    static constexpr size_t kWidth = sizeof(__m512i);

    static Register broadcast(uint8_t byte) { return _mm512_set1_epi8(static_cast<char>(byte)); }
    static Register load(const char* bytes) { return _mm512_loadu_si512(bytes); }
    static Register bitOr(Register a, Register b) { return _mm512_or_si512(a, b); }

    /// The second compare runs under the first one's mask: the AND costs no instruction.
    static uint64_t pairEqualMask(Register a, Register a_expected, Register b, Register b_expected)
    {
        return _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(a, a_expected), b, b_expected);
    }
};

}  // namespace

constinit const KernelTable kAvx512Kernels = makeKernelTable<Avx512Vector>();

}  // namespace granary::simd::internal
