#include "engine/common/ascii.h"

#include <algorithm>

namespace granary
{
namespace
{

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool equalsIgnoringCase(std::string_view left, std::string_view right)
{
    return std::equal(left.begin(), left.end(), right.begin(), right.end(),
                      [](char a, char b) { return lower(a) == lower(b); });
}

std::string lowerCaseAscii(std::string_view text)
{
    std::string lowered(text);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), lower);
    return lowered;
}

std::string_view trimAscii(std::string_view text)
{
    constexpr std::string_view kSpaces = " \t\n\r\f\v";
    const size_t first = text.find_first_not_of(kSpaces);
    if (first == std::string_view::npos)
    {
        return {};
    }
    return text.substr(first, text.find_last_not_of(kSpaces) - first + 1);
}

}  // namespace granary
