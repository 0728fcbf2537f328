#pragma once

// One Granary column as an exported Arrow child array, and one field as a child schema.

#include <string>
#include <string_view>
#include <vector>

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

/// One field of an exported schema; a list's has its element field as its one child.
struct ExportedField
{
    std::string name;
    std::string format;
    bool nullable = false;
    std::vector<ExportedField> children = {};
};

/// The name of a list's element field, as Arrow's implementations write it.
inline constexpr const char* kListElementName = "item";

/// The field of `column` exported as `format`, with its element field if it is an Array.
ExportedField exportedFieldOf(std::string name, const Column& column, std::string format);

/// A schema of `field` that owns its strings.
void exportFieldSchema(ExportedField field, ArrowSchema* out);

}  // namespace granary::arrow
