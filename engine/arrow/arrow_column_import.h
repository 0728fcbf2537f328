#pragma once

// The pieces of importBatch that read one array (a column, or a column's dictionary): checks of
// what the C Data Interface lets a consumer check, and views of values and validity.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/arrow/arrow_format.h"
#include "engine/arrow/arrow_import.h"
#include "granary/arrow_c_data.h"
#include "granary/column_view.h"

namespace granary::arrow
{

/// Rows of one array that make a column: row i is element `first + i` (the array's own offset
/// plus, for a struct's child, the struct's offset).
struct ArraySlice
{
    const ArrowArray* array = nullptr;
    size_t first = 0;
    size_t rows = 0;
};

/// The format `format` as Granary reads it; throws Exception(kUnknownType) when it is not one.
ArrowFormat parseSupportedFormat(std::string_view format, std::string_view subject);

/// Checks what every array must get right before anything else is read: not released, length
/// and offset not negative, null_count -1 (unknown) or more.
void checkArrayHeader(const ArrowArray& array, std::string_view subject);

/// Checks n_buffers, the buffers pointer and n_children against what `format` has.
void checkBufferAndChildCounts(const ArrowArray& array, int64_t buffers, int64_t children,
                               std::string_view format, std::string_view subject);

/// The values of `slice` as `format` lays them out: zero-copy for fixed widths and int64
/// offsets, a copy for booleans (unpacked to bytes) and int32 offsets (widened).
ColumnView importValues(const ArraySlice& slice, const ArrowFormat& format,
                        std::string_view subject, ImportedBatch& batch);

/// `view` with the validity bitmap of `slice`'s array, where the array says it has NULLs.
ColumnView withArrayValidity(ColumnView view, const ArraySlice& slice, std::string_view subject);

}  // namespace granary::arrow
