// Portable kernels: the filter compares 64-bit words, eight candidate starts at a time.

#include "simd/internal/scan_kernel.h"

namespace granary::simd::internal
{
namespace
{

struct WordVector
{
    using Register = uint64_t;
    static constexpr size_t kWidth = sizeof(uint64_t);

    /// Each byte's low seven bits, and each byte's high bit.
    static constexpr uint64_t kLowBits = 0x7F7F7F7F7F7F7F7FULL;
    static constexpr uint64_t kHighBits = 0x8080808080808080ULL;
    /// Multiplying by this gathers bit 0 of byte i to bit 56 + i (no two products collide).
    static constexpr uint64_t kGatherMultiplier = 0x0102040810204080ULL;
    static constexpr uint64_t kOnePerByte = 0x0101010101010101ULL;

    static Register broadcast(uint8_t byte) { return kOnePerByte * byte; }
    static Register load(const char* bytes) { return loadWord(bytes); }
    static Register bitOr(Register a, Register b) { return a | b; }

    static uint64_t pairEqualMask(Register a, Register a_expected, Register b, Register b_expected)
    {
        const uint64_t both_equal = zeroBytes(a ^ a_expected) & zeroBytes(b ^ b_expected);
        return ((both_equal >> 7) * kGatherMultiplier) >> 56;
    }

    /// High bit of each byte set iff that byte is zero; exact, as no carry crosses bytes.
    static uint64_t zeroBytes(uint64_t word)
    {
        return ~(((word & kLowBits) + kLowBits) | word) & kHighBits;
    }
};

}  // namespace

constinit const KernelTable kScalarKernels = makeKernelTable<WordVector>();

}  // namespace granary::simd::internal
