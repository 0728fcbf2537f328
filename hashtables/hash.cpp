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
    uint64_t lane0 = length * kThirdMultiplier;
    uint64_t lane1 = kGoldenMultiplier;
    const char* p = data;
    const char* end = data + length;
    while (end - p > 32)
    {
        lane0 = multiplyFold(load64(p) ^ lane0, load64(p + 8) ^ kGoldenMultiplier);
        lane1 = multiplyFold(load64(p + 16) ^ lane1, load64(p + 24) ^ kSecondMultiplier);
        p += 32;
    }
    // The last 32 bytes (overlapping what was mixed already) finish both lanes.
    const char* tail = end - 32;
    lane0 = multiplyFold(load64(tail) ^ lane0, load64(tail + 8) ^ kThirdMultiplier);
    lane1 = multiplyFold(load64(tail + 16) ^ lane1, load64(tail + 24) ^ kGoldenMultiplier);
    return multiplyFold(lane0 ^ kSecondMultiplier, lane1 ^ length);
}

}  // namespace granary::hashing
