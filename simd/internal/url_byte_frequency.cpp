#include "simd/internal/url_byte_frequency.h"

#include <string_view>
#include <utility>

namespace granary::simd::internal
{
namespace
{

/// Bytes absent from the list below: control bytes and raw bytes >= 0x80 are rare in URLs,
/// which percent-encode them.
constexpr uint16_t kUnlistedByteFrequency = 1;

/// Estimated from the make-up of web-analytics URLs: letters follow English text skewed by
/// "http", "www", ".php" and "com"; percent-encoded UTF-8 ("%D0%B0") lifts '%', digits and the
/// upper-case hex letters; '/', '.', '=', '&' and '?' come from the URL syntax.
constexpr std::pair<std::string_view, uint16_t> kFrequencyGroups[] = {
    {"e", 650},    {"t", 560},       {"a", 520},    {"o", 500},   {"/", 450},
    {"i", 430},    {"s", 420},       {"n", 400},    {"r", 380},   {"p", 330},
    {"c", 300},    {"l", 280},       {"m", 270},    {"d.%", 250}, {"h", 240},
    {"u", 200},    {"w", 180},       {"=", 150},    {"g", 140},   {"01f", 130},
    {"b-", 120},   {"k2D", 110},     {"&yv", 90},   {"3", 80},    {"845:B", 70},
    {"679?_", 60}, {"x", 40},        {"jzACF", 30}, {"q+E", 20},  {"GHIJKLMNOPQRSTUVWXYZ#", 10},
    {",;", 5},     {"~!*()@$'[]", 2}};

constexpr std::array<uint16_t, 256> buildFrequencyTable()
{
    std::array<uint16_t, 256> table{};
    table.fill(kUnlistedByteFrequency);
    for (const auto& [bytes, frequency] : kFrequencyGroups)
    {
        for (char byte : bytes)
        {
            table[static_cast<uint8_t>(byte)] = frequency;
        }
    }
    return table;
}

}  // namespace

const std::array<uint16_t, 256> kUrlByteFrequency = buildFrequencyTable();

}  // namespace granary::simd::internal
