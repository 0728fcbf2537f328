#pragma once

#include <cmath>
#include <string_view>
#include <type_traits>

namespace granary
{

/// The total order storage sorts and bounds granules by: numbers by value with NaN above every
/// other float (so sorting stays a strict weak order), strings bytewise (unsigned).
template <typename T>
bool valueLess(const T& left, const T& right)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        if (std::isnan(left) || std::isnan(right))
        {
            return !std::isnan(left);
        }
    }
    return left < right;
}

}  // namespace granary
