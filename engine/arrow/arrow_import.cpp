#include "engine/arrow/arrow_import.h"

#include <cstring>
#include <string>

#include "engine/arrow/arrow_bits.h"
#include "engine/arrow/arrow_column_import.h"
#include "engine/arrow/arrow_dictionary_import.h"
#include "engine/arrow/arrow_error.h"

namespace granary::arrow
{

namespace
{

/// A struct array has only its validity bitmap; the values are in its children.
constexpr int64_t kStructBuffers = 1;
constexpr std::string_view kStructFormat = "+s";

/// The column `field` of `array`, whose rows are the parent's rows [parent_offset,
/// parent_offset + rows) (a struct's offset applies to its children too).
ColumnView importColumn(const ArrowArray& array, const ArrowField& field, size_t parent_offset,
                        size_t rows, std::string_view subject, ImportedBatch& batch)
{
    checkArrayHeader(array, subject);
    const size_t needed = parent_offset + rows;
    if (static_cast<size_t>(array.length) < needed)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        "length " + std::to_string(array.length) +
                            " is shorter than the batch's offset plus length (" +
                            std::to_string(needed) + ")");
    }
    const ArraySlice slice{&array, static_cast<size_t>(array.offset) + parent_offset, rows};
    if (field.dictionary)
    {
        return importDictionaryColumn(slice, field, subject, batch);
    }
    const ArrowFormat format = parseSupportedFormat(field.format, subject);
    checkBufferAndChildCounts(array, bufferCount(format.layout), 0, field.format, subject);
    return withArrayValidity(importValues(slice, format, subject, batch), slice, subject);
}

/// `column` with NULLs also where the struct row is NULL: the struct's bitmap itself when the
/// column has none, else the two combined into an owned bitmap.
ColumnView withStructValidity(const ColumnView& column, const ColumnView& struct_rows,
                              ImportedBatch& batch)
{
    if (!struct_rows.hasValidity())
    {
        return column;
    }
    if (!column.hasValidity())
    {
        return column.withValidity(struct_rows.validity, struct_rows.validity_offset);
    }
    const size_t bytes = bitmapBytes(column.rows);
    uint8_t* combined = batch.allocate<uint8_t>(bytes);
    std::memset(combined, 0, bytes);
    for (size_t row = 0; row < column.rows; ++row)
    {
        if (column.isValid(row) && struct_rows.isValid(row))
        {
            setBit(combined, row);
        }
    }
    return column.withValidity(combined);
}

bool isRead(const ColumnSelection& read, size_t column)
{
    return read.empty() || read[column];
}

void importStructColumns(const ArrowArray& array, const std::vector<ArrowField>& fields,
                         const ColumnSelection& read, ImportedBatch& batch)
{
    checkArrayHeader(array, kBatchSubject);
    checkBufferAndChildCounts(array, kStructBuffers, static_cast<int64_t>(fields.size()),
                              kStructFormat, kBatchSubject);
    batch.rows = static_cast<size_t>(array.length);
    const ArraySlice struct_slice{&array, static_cast<size_t>(array.offset), batch.rows};
    const ColumnView struct_rows =
        withArrayValidity(ColumnView{TypeId::UInt8, batch.rows}, struct_slice, kBatchSubject);
    for (size_t i = 0; i < fields.size(); ++i)
    {
        if (!isRead(read, i))
        {
            batch.columns.push_back(ColumnView{fields[i].type, batch.rows});
            continue;
        }
        const std::string subject = describeColumn(i, fields[i].name);
        const ArrowArray* child = array.children[i];
        if (child == nullptr)
        {
            throwArrowError(ErrorCode::kIncorrectData, subject,
                            "its child array (children[" + std::to_string(i) + "]) is null");
        }
        const ColumnView column =
            importColumn(*child, fields[i], struct_slice.first, batch.rows, subject, batch);
        batch.columns.push_back(withStructValidity(column, struct_rows, batch));
    }
}

/// A single-field schema describes the column itself, which comes as an array without
/// children (a struct of one column has a child).
bool isColumnArray(const ArrowArray& array, const std::vector<ArrowField>& fields)
{
    return fields.size() == 1 && array.n_children == 0;
}

}  // namespace

ImportedBatch importBatch(const ArrowArray& array, const std::vector<ArrowField>& fields,
                          const ColumnSelection& read)
{
    if (!read.empty() && read.size() != fields.size())
    {
        throw Exception(ErrorCode::kLogicalError, "a selection of " + std::to_string(read.size()) +
                                                      " columns for a schema of " +
                                                      std::to_string(fields.size()));
    }
    ImportedBatch batch;
    if (!isColumnArray(array, fields))
    {
        importStructColumns(array, fields, read, batch);
        return batch;
    }
    const std::string subject = describeColumn(0, fields.front().name);
    checkArrayHeader(array, subject);
    batch.rows = static_cast<size_t>(array.length);
    batch.columns.push_back(isRead(read, 0)
                                ? importColumn(array, fields.front(), 0, batch.rows, subject, batch)
                                : ColumnView{fields.front().type, batch.rows});
    return batch;
}

}  // namespace granary::arrow
