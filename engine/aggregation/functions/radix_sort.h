#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace granary
{

/// A double's bits rearranged so that unsigned order is numeric order (NaN aside, -0.0 before
/// +0.0): negative values have every bit flipped (larger magnitudes first), others only the
/// sign bit.
inline uint64_t orderedBits(double value)
{
    const uint64_t bits = std::bit_cast<uint64_t>(value);
    return bits ^ (uint64_t(int64_t(bits) >> 63) | (uint64_t{1} << 63));
}
inline double fromOrderedBits(uint64_t key)
{
    return std::bit_cast<double>(key ^ (uint64_t(int64_t(~key) >> 63) | (uint64_t{1} << 63)));
}

/// Sorts `count` keys ascending with a least-significant-digit radix sort, one pass per byte
/// in which the keys differ: keys of a narrow range (a column's doubles of a few thousand
/// integers) take two or three passes instead of a comparison sort's log2(count) mispredicted
/// branches per key. Each pass counts and places the two halves of the keys with counters of
/// their own: a run of equal keys then increments two counters in turn, not one, halving the
/// chain of dependent increments that bounds a pass over repetitive data. `scratch` holds
/// `count` keys; returns whichever of the two holds the result.
inline uint64_t* radixSort(uint64_t* keys, uint64_t* scratch, size_t count)
{
    constexpr size_t kDigits = 8;
    constexpr size_t kDigitValues = 256;
    uint64_t all_ones = ~uint64_t{0};
    uint64_t any_ones = 0;
    for (size_t i = 0; i < count; ++i)
    {
        all_ones &= keys[i];
        any_ones |= keys[i];
    }
    const uint64_t differing = all_ones ^ any_ones;
    const size_t half = count / 2;
    for (size_t digit = 0; digit < kDigits; ++digit)
    {
        const unsigned shift = unsigned(digit * 8);
        if (((differing >> shift) & 0xFF) == 0)
        {
            continue;  // one byte value throughout: the pass would keep the order as it is
        }
        const auto digit_of = [shift](uint64_t key) { return (key >> shift) & 0xFF; };
        // Keys [0, half) count in `first`, keys [half, count) in `second`.
        std::array<uint32_t, kDigitValues> first{};
        std::array<uint32_t, kDigitValues> second{};
        for (size_t i = 0; i < half; ++i)
        {
            ++first[digit_of(keys[i])];
            ++second[digit_of(keys[half + i])];
        }
        if (count % 2 != 0)
        {
            ++second[digit_of(keys[count - 1])];
        }
        // A digit's keys from the first half go before those from the second: stable.
        uint32_t position = 0;
        for (size_t value = 0; value < kDigitValues; ++value)
        {
            const uint32_t in_first = std::exchange(first[value], position);
            position += in_first;
            position += std::exchange(second[value], position);
        }
        for (size_t i = 0; i < half; ++i)
        {
            scratch[first[digit_of(keys[i])]++] = keys[i];
            scratch[second[digit_of(keys[half + i])]++] = keys[half + i];
        }
        if (count % 2 != 0)
        {
            scratch[second[digit_of(keys[count - 1])]++] = keys[count - 1];
        }
        std::swap(keys, scratch);
    }
    return keys;
}

}  // namespace granary
