#pragma once

// One Granary column as an exported Arrow child array, and one field as a child schema.

#include <string>
#include <string_view>

#include "engine/arrow/arrow_export_format.h"
#include "engine/columns/column.h"
#include "granary/arrow_c_data.h"

namespace granary::arrow
{

/// Throws what exportColumnArray would fail on, before anything is moved: Exception(
/// kTooLargeSize) for a String column whose chars do not fit utf8's int32 offsets.
void checkExportable(const Column& column, const ExportFormat& format, std::string_view subject);

/// Moves `column` into a new array of `format`'s type that owns it (and any converted buffer);
/// its release callback frees them. The validity bitmap is exported only when there are NULLs.
void exportColumnArray(Column&& column, const ExportFormat& format, ArrowArray* out);

/// One field of an exported schema.
struct ExportedField
{
    std::string name;
    std::string format;
    bool nullable = false;
};

/// A schema of `field` that owns its strings.
void exportFieldSchema(ExportedField field, ArrowSchema* out);

}  // namespace granary::arrow
