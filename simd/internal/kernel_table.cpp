#include "simd/internal/kernel_table.h"

namespace granary::simd::internal
{

const KernelTable& kernelsFor(SimdLevel level)
{
#if defined(__x86_64__)
    switch (level)
    {
        case SimdLevel::Scalar:
            return kScalarKernels;
        case SimdLevel::Sse:
            return kSseKernels;
        case SimdLevel::Avx2:
            return kAvx2Kernels;
        case SimdLevel::Avx512:
            return kAvx512Kernels;
    }
#endif
    return kScalarKernels;
}

}  // namespace granary::simd::internal
