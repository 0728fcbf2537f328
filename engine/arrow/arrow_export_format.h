#pragma once

// Which Arrow type a Granary column is exported as, and what conversion that takes.

#include <cstdint>
#include <string>
#include <string_view>

#include "granary/types.h"

namespace granary::arrow
{

/// What a column's buffers need to become the Arrow type's.
enum class ExportConversion : uint8_t
{
    kNone,           ///< The same layout: the column's buffers are exported as they are.
    kWidenDate,      ///< uint16 days to date32's int32.
    kWidenDateTime,  ///< uint32 seconds to timestamp[s]'s int64.
    kPackBits,       ///< UInt8 bytes to boolean bits.
    kNarrowOffsets,  ///< uint64 string offsets to utf8's int32.
};

struct ExportFormat
{
    std::string format;
    ExportConversion conversion = ExportConversion::kNone;
};

/// How a column of `type` becomes the Arrow format `requested` (the type's default when empty).
/// Throws Exception(kTypeMismatch) naming `subject` when that format does not hold the type.
ExportFormat resolveExportFormat(TypeId type, std::string_view requested, std::string_view subject);

}  // namespace granary::arrow
