// AVX2 kernels; simd/CMakeLists.txt compiles this file alone with -mavx2, and they run only
// where cpuSupports(SimdLevel::Avx2).

#include <immintrin.h>

#include "simd/internal/scan_kernel.h"

namespace granary::simd::internal
{
namespace
{

struct Avx2Vector
{
    using Register = __m256i;
    static constexpr size_t kWidth = sizeof(__m256i);

    static Register broadcast(uint8_t byte) { return _mm256_set1_epi8(static_cast<char>(byte)); }
    static Register load(const char* bytes)
    {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
    }
    static Register bitOr(Register a, Register b) { return _mm256_or_si256(a, b); }

    static uint64_t pairEqualMask(Register a, Register a_expected, Register b, Register b_expected)
    {
        const __m256i both =
            _mm256_and_si256(_mm256_cmpeq_epi8(a, a_expected), _mm256_cmpeq_epi8(b, b_expected));
        return static_cast<uint32_t>(_mm256_movemask_epi8(both));
    }
};

}  // namespace

constinit const KernelTable kAvx2Kernels = makeKernelTable<Avx2Vector>();

}  // namespace granary::simd::internal
