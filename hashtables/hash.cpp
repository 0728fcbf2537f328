#include "hashtables/hash.h"

namespace granary::hashing
{

uint64_t hashBytes(const char* data, size_t length)
{
    if (length <= 8)
    {
        return hashShortWords(length == 0 ? 0 : loadTail(data, length), 0, 0, length);
    }
    if (length <= 16)
    {
        return hashShortWords(load64(data), loadTail(data + 8, length - 8), 0, length);
    }
    if (length <= 24)
    {
        return hashShortWords(load64(data), load64(data + 8), loadTail(data + 16, length - 16),
                              length);
    }
    if (length <= 32)
    {
        // The last word overlaps the third: no byte outside [data, data + length) is read.
        const uint64_t front =
            multiplyFold(load64(data) ^ kGoldenMultiplier, load64(data + 8) ^ kSecondMultiplier);
        const uint64_t back = multiplyFold(load64(data + 16) ^ kThirdMultiplier,
                                           load64(data + length - 8) ^ kGoldenMultiplier);
        return multiplyFold(front ^ length, back ^ kSecondMultiplier);
    }
    if (length <= 64)
    {
        // The first and the last 32 bytes (overlapping): four independent products.
        const char* back = data + length - 32;
        const uint64_t a =
            multiplyFold(load64(data) ^ kGoldenMultiplier, load64(data + 8) ^ kSecondMultiplier);
        const uint64_t b = multiplyFold(load64(data + 16) ^ kThirdMultiplier,
                                        load64(data + 24) ^ kGoldenMultiplier);
        const uint64_t c =
            multiplyFold(load64(back) ^ kSecondMultiplier, load64(back + 8) ^ kThirdMultiplier);
        const uint64_t d = multiplyFold(load64(back + 16) ^ kGoldenMultiplier,
                                        load64(back + 24) ^ kSecondMultiplier);
        return multiplyFold(a ^ c ^ (length * kThirdMultiplier), b ^ d ^ kGoldenMultiplier);
    }
    // Four lanes over 64-byte strides; the last 64 bytes (overlapping what was mixed already)
    // finish them, so lengths of 65 to 128 bytes run no loop.
    uint64_t lane0 = length * kThirdMultiplier;
    uint64_t lane1 = kGoldenMultiplier;
    uint64_t lane2 = kSecondMultiplier;
    uint64_t lane3 = kThirdMultiplier;
    const auto mix = [&](const char* p)
    {
        lane0 = multiplyFold(load64(p) ^ lane0, load64(p + 8) ^ kGoldenMultiplier);
        lane1 = multiplyFold(load64(p + 16) ^ lane1, load64(p + 24) ^ kSecondMultiplier);
        lane2 = multiplyFold(load64(p + 32) ^ lane2, load64(p + 40) ^ kThirdMultiplier);
        lane3 = multiplyFold(load64(p + 48) ^ lane3, load64(p + 56) ^ kGoldenMultiplier);
    };
    const char* end = data + length;
    for (const char* p = data; end - p > 64; p += 64)
    {
        mix(p);
    }
    mix(end - 64);
    return multiplyFold(lane0 ^ lane2 ^ kSecondMultiplier, lane1 ^ lane3 ^ length);
}

}  // namespace granary::hashing
