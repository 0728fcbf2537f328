#include "engine/arrow/arrow_column_import.h"

#include <algorithm>
#include <string>

#include "engine/arrow/arrow_bits.h"
#include "engine/arrow/arrow_error.h"

namespace granary::arrow
{

namespace
{

constexpr int64_t kValidityBuffer = 0;
constexpr int64_t kValuesBuffer = 1;
constexpr int64_t kOffsetsBuffer = 1;
constexpr int64_t kCharsBuffer = 2;
/// null_count of an array whose producer did not count its NULLs.
constexpr int64_t kUnknownNullCount = -1;
constexpr std::string_view kSupportedFormats =
    "c C s S i I l L f g b tdD tdm tss: tsm: tsu: tsn: u U z Z, and dictionaries of those";

/// buffers[index], which may be null only when the column has no rows.
const void* requiredBuffer(const ArraySlice& slice, int64_t index, std::string_view role,
                           std::string_view subject)
{
    const void* buffer = slice.array->buffers[index];
    if (buffer == nullptr && slice.rows > 0)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        std::string(role) + " buffer (buffers[" + std::to_string(index) +
                            "]) is null while the column has " + std::to_string(slice.rows) +
                            " rows");
    }
    return buffer;
}

ColumnView fixedWidthValues(const ArraySlice& slice, const ArrowFormat& format,
                            std::string_view subject)
{
    const auto* values =
        static_cast<const std::byte*>(requiredBuffer(slice, kValuesBuffer, "values", subject));
    ColumnView view{format.type, slice.rows};
    view.data = values == nullptr ? nullptr : values + slice.first * format.width;
    return view;
}

ColumnView booleanValues(const ArraySlice& slice, std::string_view subject, ImportedBatch& batch)
{
    const auto* bits =
        static_cast<const uint8_t*>(requiredBuffer(slice, kValuesBuffer, "values", subject));
    uint8_t* bytes = batch.allocate<uint8_t>(slice.rows);
    for (size_t row = 0; row < slice.rows; ++row)
    {
        bytes[row] = bitAt(bits, slice.first + row) ? 1 : 0;
    }
    return ColumnView::of(TypeId::UInt8, bytes, slice.rows);
}

/// Strings that are all empty, over owned zero offsets: for a column without rows or without a
/// chars buffer, whose offsets must not be applied to a null pointer.
ColumnView emptyStrings(size_t rows, ImportedBatch& batch)
{
    static constexpr char kNoChars[] = "";
    uint64_t* offsets = batch.allocate<uint64_t>(rows + 1);
    std::fill_n(offsets, rows + 1, 0);
    return ColumnView::ofStrings(kNoChars, offsets, rows);
}

/// Rows' offsets (rows + 1 of them) must be non-negative and must not decrease.
template <typename Offset>
void checkStringOffsets(const Offset* offsets, size_t rows, std::string_view subject)
{
    for (size_t row = 0; row <= rows; ++row)
    {
        if (offsets[row] < 0)
        {
            throwArrowError(ErrorCode::kIncorrectData, subject,
                            "string offset " + std::to_string(row) + " is negative (" +
                                std::to_string(offsets[row]) + ")");
        }
        if (row > 0 && offsets[row] < offsets[row - 1])
        {
            throwArrowError(ErrorCode::kIncorrectData, subject,
                            "string offsets run backwards at row " + std::to_string(row - 1) +
                                " (" + std::to_string(offsets[row - 1]) + " to " +
                                std::to_string(offsets[row]) + ")");
        }
    }
}

/// large_utf8's offsets are Granary's: checked non-negative, they read as uint64 as they are.
const uint64_t* absoluteOffsets(const int64_t* offsets, size_t, ImportedBatch&)
{
    return reinterpret_cast<const uint64_t*>(offsets);
}

/// utf8's int32 offsets are widened: one copy of the offsets, none of the chars.
const uint64_t* absoluteOffsets(const int32_t* offsets, size_t rows, ImportedBatch& batch)
{
    uint64_t* widened = batch.allocate<uint64_t>(rows + 1);
    std::copy_n(offsets, rows + 1, widened);
    return widened;
}

template <typename Offset>
ColumnView stringValues(const ArraySlice& slice, std::string_view subject, ImportedBatch& batch)
{
    if (slice.rows == 0)
    {
        return emptyStrings(0, batch);
    }
    const auto* offsets =
        static_cast<const Offset*>(requiredBuffer(slice, kOffsetsBuffer, "offsets", subject)) +
        slice.first;
    checkStringOffsets(offsets, slice.rows, subject);
    const auto* chars = static_cast<const char*>(slice.array->buffers[kCharsBuffer]);
    if (chars == nullptr)
    {
        if (offsets[slice.rows] != offsets[0])
        {
            throwArrowError(ErrorCode::kIncorrectData, subject,
                            "chars buffer (buffers[2]) is null while the strings hold " +
                                std::to_string(offsets[slice.rows] - offsets[0]) + " bytes");
        }
        return emptyStrings(slice.rows, batch);
    }
    return ColumnView::ofStrings(chars, absoluteOffsets(offsets, slice.rows, batch), slice.rows);
}

}  // namespace

ArrowFormat parseSupportedFormat(std::string_view format, std::string_view subject)
{
    const std::optional<ArrowFormat> parsed = parseArrowFormat(format);
    if (!parsed)
    {
        throwArrowError(ErrorCode::kUnknownType, subject,
                        "Arrow format '" + std::string(format) +
                            "' is not supported (Granary reads " + std::string(kSupportedFormats) +
                            ")");
    }
    return *parsed;
}

void checkArrayHeader(const ArrowArray& array, std::string_view subject)
{
    if (array.release == nullptr)
    {
        throwArrowError(ErrorCode::kBadArguments, subject,
                        "the array is already released (its release callback is null)");
    }
    if (array.length < 0 || array.offset < 0)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        "length " + std::to_string(array.length) + " and offset " +
                            std::to_string(array.offset) + " must not be negative");
    }
    if (array.null_count < kUnknownNullCount)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        "null_count is " + std::to_string(array.null_count) +
                            " (it may be -1, unknown, but not less)");
    }
}

void checkBufferAndChildCounts(const ArrowArray& array, int64_t buffers, int64_t children,
                               std::string_view format, std::string_view subject)
{
    const std::string for_format = " for format '" + std::string(format) + "'";
    if (array.n_buffers != buffers)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        "n_buffers is " + std::to_string(array.n_buffers) + ", expected " +
                            std::to_string(buffers) + for_format);
    }
    if (array.buffers == nullptr)
    {
        throwArrowError(
            ErrorCode::kIncorrectData, subject,
            "the buffers pointer is null while n_buffers is " + std::to_string(buffers));
    }
    if (array.n_children != children)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        "n_children is " + std::to_string(array.n_children) + ", expected " +
                            std::to_string(children) + for_format);
    }
    if (children > 0 && array.children == nullptr)
    {
        throwArrowError(
            ErrorCode::kIncorrectData, subject,
            "the children pointer is null while n_children is " + std::to_string(children));
    }
}

ColumnView importValues(const ArraySlice& slice, const ArrowFormat& format,
                        std::string_view subject, ImportedBatch& batch)
{
    switch (format.layout)
    {
        case ArrowLayout::kFixedWidth:
            return fixedWidthValues(slice, format, subject);
        case ArrowLayout::kBoolean:
            return booleanValues(slice, subject, batch);
        case ArrowLayout::kUtf8:
            return stringValues<int32_t>(slice, subject, batch);
        case ArrowLayout::kLargeUtf8:
            return stringValues<int64_t>(slice, subject, batch);
    }
    __builtin_unreachable();
}

ColumnView withArrayValidity(ColumnView view, const ArraySlice& slice, std::string_view subject)
{
    const ArrowArray& array = *slice.array;
    // null_count 0 promises no NULLs, whatever the bitmap (which may be absent) says.
    if (array.null_count == 0)
    {
        return view;
    }
    const auto* bitmap = static_cast<const uint8_t*>(array.buffers[kValidityBuffer]);
    if (bitmap == nullptr)
    {
        if (array.null_count > 0)
        {
            throwArrowError(ErrorCode::kIncorrectData, subject,
                            "validity buffer (buffers[0]) is null while null_count is " +
                                std::to_string(array.null_count));
        }
        return view;
    }
    return view.withValidity(bitmap, slice.first);
}

}  // namespace granary::arrow
