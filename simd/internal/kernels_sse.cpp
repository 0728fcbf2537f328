// SSE2 kernels: every x86-64 has them, so this file needs no flags beyond the build baseline.

#include <emmintrin.h>

#include "simd/internal/scan_kernel.h"

namespace granary::simd::internal
{
namespace
{

struct SseVector
{
    using Register = __m128i;
    static constexpr size_t kWidth = sizeof(__m128i);

    static Register broadcast(uint8_t byte) { return _mm_set1_epi8(static_cast<char>(byte)); }
    static Register load(const char* bytes)
    {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
    }
    static Register bitOr(Register a, Register b) { return _mm_or_si128(a, b); }

    static uint64_t pairEqualMask(Register a, Register a_expected, Register b, Register b_expected)
    {
        const __m128i both =
            _mm_and_si128(_mm_cmpeq_epi8(a, a_expected), _mm_cmpeq_epi8(b, b_expected));
        return static_cast<uint16_t>(_mm_movemask_epi8(both));
    }
};

}  // namespace

constinit const KernelTable kSseKernels = makeKernelTable<SseVector>();

}  // namespace granary::simd::internal
