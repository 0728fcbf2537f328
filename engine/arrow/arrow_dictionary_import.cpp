#include "engine/arrow/arrow_dictionary_import.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "engine/arrow/arrow_bits.h"
#include "engine/arrow/arrow_error.h"
#include "engine/columns/types.h"

namespace granary::arrow
{

namespace
{

/// The position of a row's value in the dictionary, or kNullRow.
using DictionaryPosition = int64_t;
constexpr DictionaryPosition kNullRow = -1;
/// An index array has a validity bitmap and the indices; its dictionary hangs off it.
constexpr int64_t kIndexBuffers = 2;

/// The dictionary values, checked like a column of their own (errors name "<column>
/// dictionary").
ColumnView importDictionaryValues(const ArrowArray& indices, const ArrowField& field,
                                  std::string_view column_subject, ImportedBatch& batch)
{
    if (indices.dictionary == nullptr)
    {
        throwArrowError(ErrorCode::kIncorrectData, column_subject,
                        "the field is dictionary-encoded but the array's dictionary is null");
    }
    const std::string subject = std::string(column_subject) + " dictionary";
    const ArrowArray& dictionary = *indices.dictionary;
    checkArrayHeader(dictionary, subject);
    const ArrowFormat format = parseSupportedFormat(field.format, subject);
    checkBufferAndChildCounts(dictionary, bufferCount(format.layout), 0, field.format, subject);
    const ArraySlice values{&dictionary, static_cast<size_t>(dictionary.offset),
                            static_cast<size_t>(dictionary.length)};
    return withArrayValidity(importValues(values, format, subject, batch), values, subject);
}

/// Where each row's value is in `dictionary`; throws naming the first valid row whose index is
/// outside it.
std::vector<DictionaryPosition> dictionaryPositions(const ColumnView& indices,
                                                    const ColumnView& dictionary,
                                                    std::string_view subject)
{
    std::vector<DictionaryPosition> positions(indices.rows, kNullRow);
    dispatchFixedType(
        indices.type,
        [&]<typename Index>(TypeTag<Index>)
        {
            if constexpr (std::is_integral_v<Index>)
            {
                for (size_t row = 0; row < indices.rows; ++row)
                {
                    if (!indices.isValid(row))
                    {
                        continue;
                    }
                    const Index index = indices.valueAt<Index>(row);
                    if (std::cmp_less(index, 0) || std::cmp_greater_equal(index, dictionary.rows))
                    {
                        throwArrowError(ErrorCode::kIncorrectData, subject,
                                        "dictionary index " + std::to_string(index) + " at row " +
                                            std::to_string(row) + " is outside the dictionary's " +
                                            std::to_string(dictionary.rows) + " values");
                    }
                    const auto position = static_cast<DictionaryPosition>(index);
                    positions[row] = dictionary.isValid(position) ? position : kNullRow;
                }
            }
        });
    return positions;
}

ColumnView gatherFixedWidth(const ColumnView& dictionary,
                            const std::vector<DictionaryPosition>& positions, ImportedBatch& batch)
{
    const size_t width = fixedWidth(dictionary.type);
    const auto* source = static_cast<const std::byte*>(dictionary.data);
    std::byte* values = batch.allocate<std::byte>(positions.size() * width);
    for (size_t row = 0; row < positions.size(); ++row)
    {
        if (positions[row] == kNullRow)
        {
            std::memset(values + row * width, 0, width);
        }
        else
        {
            std::memcpy(values + row * width, source + positions[row] * width, width);
        }
    }
    return ColumnView{dictionary.type, positions.size(), values};
}

ColumnView gatherStrings(const ColumnView& dictionary,
                         const std::vector<DictionaryPosition>& positions, ImportedBatch& batch)
{
    size_t total_bytes = 0;
    for (const DictionaryPosition position : positions)
    {
        total_bytes += position == kNullRow ? 0 : dictionary.stringAt(position).size();
    }
    char* chars = batch.allocate<char>(total_bytes);
    uint64_t* offsets = batch.allocate<uint64_t>(positions.size() + 1);
    offsets[0] = 0;
    for (size_t row = 0; row < positions.size(); ++row)
    {
        const std::string_view value =
            positions[row] == kNullRow ? std::string_view() : dictionary.stringAt(positions[row]);
        std::copy(value.begin(), value.end(), chars + offsets[row]);
        offsets[row + 1] = offsets[row] + value.size();
    }
    return ColumnView::ofStrings(chars, offsets, positions.size());
}

/// `view` with NULLs where `positions` has kNullRow.
ColumnView withNullRows(ColumnView view, const std::vector<DictionaryPosition>& positions,
                        ImportedBatch& batch)
{
    if (std::find(positions.begin(), positions.end(), kNullRow) == positions.end())
    {
        return view;
    }
    const size_t bytes = bitmapBytes(positions.size());
    uint8_t* bitmap = batch.allocate<uint8_t>(bytes);
    std::memset(bitmap, 0, bytes);
    for (size_t row = 0; row < positions.size(); ++row)
    {
        if (positions[row] != kNullRow)
        {
            setBit(bitmap, row);
        }
    }
    return view.withValidity(bitmap);
}

}  // namespace

ColumnView importDictionaryColumn(const ArraySlice& indices, const ArrowField& field,
                                  std::string_view subject, ImportedBatch& batch)
{
    if (!isIntegerFormat(field.index_format))
    {
        throwArrowError(
            ErrorCode::kUnknownType, subject,
            "dictionary index format '" + field.index_format + "' is not an integer format");
    }
    const ArrowFormat index_format = parseSupportedFormat(field.index_format, subject);
    checkBufferAndChildCounts(*indices.array, kIndexBuffers, 0, field.index_format, subject);
    const ColumnView dictionary = importDictionaryValues(*indices.array, field, subject, batch);
    const ColumnView index_view =
        withArrayValidity(importValues(indices, index_format, subject, batch), indices, subject);
    const std::vector<DictionaryPosition> positions =
        dictionaryPositions(index_view, dictionary, subject);
    const ColumnView decoded = isString(dictionary.type)
                                   ? gatherStrings(dictionary, positions, batch)
                                   : gatherFixedWidth(dictionary, positions, batch);
    return withNullRows(decoded, positions, batch);
}

}  // namespace granary::arrow
