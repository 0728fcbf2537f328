#pragma once

#include <string>
#include <string_view>

namespace granary
{

/// ASCII case-insensitive comparison: keywords, type names, function and format names ignore
/// case.
bool equalsIgnoringCase(std::string_view left, std::string_view right);
std::string lowerCaseAscii(std::string_view text);
/// `text` without leading and trailing ASCII white space.
std::string_view trimAscii(std::string_view text);

}  // namespace granary
