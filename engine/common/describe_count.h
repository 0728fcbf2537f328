#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace granary
{

/// "1 argument", "2 arguments", "2 to 3 arguments", "at least 1 argument" (high SIZE_MAX):
/// what every arity error says a function takes.
inline std::string describeCount(size_t low, size_t high, std::string_view noun)
{
    const auto counted = [&](size_t count, size_t number)
    { return std::to_string(count) + " " + std::string(noun) + (number == 1 ? "" : "s"); };
    if (high == SIZE_MAX)
    {
        return "at least " + counted(low, low);
    }
    if (low == high)
    {
        return counted(low, low);
    }
    return std::to_string(low) + " to " + counted(high, high);
}

}  // namespace granary
