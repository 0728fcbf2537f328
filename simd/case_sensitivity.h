#pragma once

#include <cstdint>

namespace granary::simd
{

/// How text comparisons treat letter case: LIKE is case-sensitive, ILIKE folds ASCII letters
/// only (bytes >= 0x80, including UTF-8 letters, always compare exactly).
enum class CaseSensitivity : uint8_t
{
    Sensitive,
    AsciiInsensitive,
};

}  // namespace granary::simd
