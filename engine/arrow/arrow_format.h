#pragma once

// Arrow format strings (the C Data Interface's type descriptions) Granary reads and writes, and
// the Granary types they map to.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "granary/types.h"

namespace granary::arrow
{

/// How the values of a format lie in an ArrowArray's buffers (after the validity bitmap).
enum class ArrowLayout : uint8_t
{
    kFixedWidth,  ///< One buffer of `width`-byte values.
    kBoolean,     ///< One buffer of bits.
    kUtf8,        ///< int32 offsets, then chars.
    kLargeUtf8,   ///< int64 offsets, then chars.
};

struct ArrowFormat
{
    TypeId type = TypeId::UInt8;
    ArrowLayout layout = ArrowLayout::kFixedWidth;
    size_t width = 0;  ///< Bytes per value of kFixedWidth; 0 otherwise.
};

/// The Granary type and layout of a format the importer reads ("l", "tdD", "tsu:UTC", "u"...);
/// nullopt for every other format.
std::optional<ArrowFormat> parseArrowFormat(std::string_view format);
/// Whether `format` is one of the integer formats ("c" to "L"), which dictionary indices use.
bool isIntegerFormat(std::string_view format);
/// n_buffers of an array of `layout`: the validity bitmap plus the value buffers.
int64_t bufferCount(ArrowLayout layout);
/// The format a column of `type` is exported as when none is asked for.
std::string_view defaultArrowFormat(TypeId type);

/// Arrow's large_list: an Array column exported with its offsets as they are, and its elements
/// as the one child.
inline constexpr std::string_view kLargeListFormat = "+L";

}  // namespace granary::arrow
