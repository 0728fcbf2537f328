#include "simd/internal/search_plan.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <tuple>
#include <utility>

#include "simd/internal/url_byte_frequency.h"

namespace granary::simd::internal
{
namespace
{

// Head words and haystack words are both loaded by memcpy; head_mask assumes the first byte is
// the lowest.
static_assert(std::endian::native == std::endian::little);

/// Bytes in the head word that verifies candidates first.
constexpr size_t kHeadBytes = sizeof(uint64_t);

/// Estimated frequency of haystack bytes passing the filter for one needle byte.
uint32_t filterFrequency(uint8_t needle_byte, uint8_t fold)
{
    uint32_t frequency = kUrlByteFrequency[needle_byte];
    if (fold != 0)
    {
        frequency += kUrlByteFrequency[needle_byte & ~kAsciiCaseBit];
    }
    return frequency;
}

/// The pair whose bytes are least likely to both match by chance (assuming independent bytes);
/// among equals, the closest pair nearest the start.
std::pair<size_t, size_t> rarestPair(const SearchPlan& plan)
{
    std::pair<size_t, size_t> best{0, 1};
    uint64_t best_score = UINT64_MAX;
    for (size_t first = 0; first < plan.needle.size(); ++first)
    {
        const uint64_t first_frequency = filterFrequency(static_cast<uint8_t>(plan.needle[first]),
                                                         static_cast<uint8_t>(plan.fold[first]));
        for (size_t second = first + 1; second < plan.needle.size(); ++second)
        {
            const uint64_t score =
                first_frequency * filterFrequency(static_cast<uint8_t>(plan.needle[second]),
                                                  static_cast<uint8_t>(plan.fold[second]));
            const bool closer = second - first < best.second - best.first;
            if (score < best_score || (score == best_score && closer))
            {
                best = {first, second};
                best_score = score;
            }
        }
    }
    return best;
}

}  // namespace

SearchPlan makeSearchPlan(std::string_view needle, CaseSensitivity case_sensitivity,
                          FilterPairChoice pair_choice)
{
    SearchPlan plan;
    plan.needle.assign(needle);
    plan.fold.assign(needle.size(), '\0');
    if (case_sensitivity == CaseSensitivity::AsciiInsensitive)
    {
        for (size_t i = 0; i < needle.size(); ++i)
        {
            const auto byte = static_cast<uint8_t>(needle[i]);
            if (isAsciiLetter(byte))
            {
                plan.needle[i] = static_cast<char>(byte | kAsciiCaseBit);
                plan.fold[i] = static_cast<char>(kAsciiCaseBit);
            }
        }
    }
    if (needle.size() >= 2)
    {
        std::tie(plan.first_position, plan.second_position) =
            pair_choice == FilterPairChoice::RarestInUrls ? rarestPair(plan)
                                                          : std::pair<size_t, size_t>{0, 1};
    }
    const size_t head_size = std::min(needle.size(), kHeadBytes);
    std::memcpy(&plan.head_needle, plan.needle.data(), head_size);
    std::memcpy(&plan.head_fold, plan.fold.data(), head_size);
    plan.head_mask = head_size == kHeadBytes ? UINT64_MAX : (uint64_t{1} << (8 * head_size)) - 1;
    return plan;
}

}  // namespace granary::simd::internal
