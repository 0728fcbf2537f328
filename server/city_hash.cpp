#include "server/city_hash.h"

#include <cstring>
#include <utility>

namespace granary::server
{
namespace
{

constexpr uint64_t kK0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t kK1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t kK2 = 0x9ae16a3b2f90404fULL;
constexpr uint64_t kK3 = 0xc949d7c7509e6557ULL;

uint64_t load64(const char* p)
{
    uint64_t value;
    std::memcpy(&value, p, sizeof(value));
    return value;
}

uint32_t load32(const char* p)
{
    uint32_t value;
    std::memcpy(&value, p, sizeof(value));
    return value;
}

uint64_t rotate(uint64_t value, int shift)
{
    return shift == 0 ? value : (value >> shift) | (value << (64 - shift));
}

/// For shifts known to be in [1, 63]: no branch.
uint64_t rotateByAtLeast1(uint64_t value, int shift)
{
    return (value >> shift) | (value << (64 - shift));
}

uint64_t shiftMix(uint64_t value)
{
    return value ^ (value >> 47);
}

uint64_t hash128To64(uint64_t low, uint64_t high)
{
    constexpr uint64_t kMul = 0x9ddfea08eb382d69ULL;
    uint64_t a = (low ^ high) * kMul;
    a ^= a >> 47;
    uint64_t b = (high ^ a) * kMul;
    b ^= b >> 47;
    return b * kMul;
}

uint64_t hashLen16(uint64_t u, uint64_t v)
{
    return hash128To64(u, v);
}

uint64_t hashLen0To16(const char* s, size_t len)
{
    if (len > 8)
    {
        const uint64_t a = load64(s);
        const uint64_t b = load64(s + len - 8);
        return hashLen16(a, rotateByAtLeast1(b + len, static_cast<int>(len))) ^ b;
    }
    if (len >= 4)
    {
        const uint64_t a = load32(s);
        return hashLen16(len + (a << 3), load32(s + len - 4));
    }
    if (len > 0)
    {
        const uint8_t a = static_cast<uint8_t>(s[0]);
        const uint8_t b = static_cast<uint8_t>(s[len >> 1]);
        const uint8_t c = static_cast<uint8_t>(s[len - 1]);
        const uint32_t y = static_cast<uint32_t>(a) + (static_cast<uint32_t>(b) << 8);
        const uint32_t z = static_cast<uint32_t>(len) + (static_cast<uint32_t>(c) << 2);
        return shiftMix(y * kK2 ^ z * kK3) * kK2;
    }
    return kK2;
}

/// Two 64-bit outputs from 32 bytes and two seeds (the "weak" 32-byte hash).
std::pair<uint64_t, uint64_t> weakHashLen32WithSeeds(const char* s, uint64_t a, uint64_t b)
{
    const uint64_t w = load64(s);
    const uint64_t x = load64(s + 8);
    const uint64_t y = load64(s + 16);
    const uint64_t z = load64(s + 24);
    a += w;
    b = rotate(b + a + z, 21);
    const uint64_t c = a;
    a += x;
    a += y;
    b += rotate(a, 44);
    return {a + z, b + c};
}

/// The hash of inputs shorter than 128 bytes: a Murmur-like loop over 16-byte pieces.
Hash128 cityMurmur(const char* s, size_t len, Hash128 seed)
{
    uint64_t a = seed.low;
    uint64_t b = seed.high;
    uint64_t c = 0;
    uint64_t d = 0;
    if (len <= 16)
    {
        a = shiftMix(a * kK1) * kK1;
        c = b * kK1 + hashLen0To16(s, len);
        d = shiftMix(a + (len >= 8 ? load64(s) : c));
    }
    else
    {
        c = hashLen16(load64(s + len - 8) + kK1, a);
        d = hashLen16(b + len, c + load64(s + len - 16));
        a += d;
        ptrdiff_t remaining = static_cast<ptrdiff_t>(len) - 16;
        do
        {
            a ^= shiftMix(load64(s) * kK1) * kK1;
            a *= kK1;
            b ^= a;
            c ^= shiftMix(load64(s + 8) * kK1) * kK1;
            c *= kK1;
            d ^= c;
            s += 16;
            remaining -= 16;
        } while (remaining > 0);
    }
    a = hashLen16(a, c);
    b = hashLen16(d, b);
    return {a ^ b, hashLen16(b, a)};
}

Hash128 cityHash128WithSeed(const char* s, size_t len, Hash128 seed)
{
    if (len < 128)
    {
        return cityMurmur(s, len, seed);
    }
    uint64_t x = seed.low;
    uint64_t y = seed.high;
    uint64_t z = len * kK1;
    std::pair<uint64_t, uint64_t> v;
    std::pair<uint64_t, uint64_t> w;
    v.first = rotate(y ^ kK1, 49) * kK1 + load64(s);
    v.second = rotate(v.first, 42) * kK1 + load64(s + 8);
    w.first = rotate(y + z, 35) * kK1 + x;
    w.second = rotate(x + load64(s + 88), 53) * kK1;

    const auto mix64Bytes = [&]
    {
        x = rotate(x + y + v.first + load64(s + 16), 37) * kK1;
        y = rotate(y + v.second + load64(s + 48), 42) * kK1;
        x ^= w.second;
        y ^= v.first;
        z = rotate(z ^ w.first, 33);
        v = weakHashLen32WithSeeds(s, v.second * kK1, x + w.first);
        w = weakHashLen32WithSeeds(s + 32, z + w.second, y);
        std::swap(z, x);
        s += 64;
    };
    do
    {
        mix64Bytes();
        mix64Bytes();
        len -= 128;
    } while (len >= 128);

    y += rotate(w.first, 37) * kK0 + z;
    x += rotate(v.first + z, 49) * kK0;
    // Up to four 32-byte pieces from the end of the input.
    for (size_t tail_done = 0; tail_done < len;)
    {
        tail_done += 32;
        y = rotate(y - x, 42) * kK0 + v.second;
        w.first += load64(s + len - tail_done + 16);
        x = rotate(x, 49) * kK0 + w.first;
        w.first += v.first;
        v = weakHashLen32WithSeeds(s + len - tail_done, v.first, v.second);
    }
    x = hashLen16(x, v.first);
    y = hashLen16(y, w.first);
    return {hashLen16(x + v.second, w.second) + y, hashLen16(x + w.second, y + v.second)};
}

}  // namespace

Hash128 cityHash128(const char* data, size_t size)
{
    if (size >= 16)
    {
        return cityHash128WithSeed(data + 16, size - 16, {load64(data) ^ kK3, load64(data + 8)});
    }
    if (size >= 8)
    {
        return cityHash128WithSeed(nullptr, 0,
                                   {load64(data) ^ (size * kK0), load64(data + size - 8) ^ kK1});
    }
    return cityHash128WithSeed(data, size, {kK0, kK1});
}

}  // namespace granary::server
