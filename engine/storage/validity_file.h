#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "engine/storage/column_files.h"

namespace granary
{

/// `c<i>.null`: a Nullable column's validity bitmap (Arrow's layout, bit set = valid), written
/// only when some row of the part is NULL. A part without NULLs has no such file and reads
/// exactly like a non-Nullable column's.
std::string validityFileName(size_t column);

/// Wraps the writer of a Nullable column's values: the rows' validity goes to c<i>.null (when a
/// row is NULL), everything else to `values`.
std::unique_ptr<ColumnFilesWriter> makeNullableColumnWriter(
    const std::filesystem::path& directory, size_t column,
    std::unique_ptr<ColumnFilesWriter> values);

}  // namespace granary
