#include "engine/storage/part.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

void checkIndex(size_t index, size_t count, const char* what)
{
    if (index >= count)
    {
        throw Exception(ErrorCode::kLogicalError,
                        std::string(what) + " index " + std::to_string(index) + " out of range");
    }
}

static_assert(Part::kGranuleRows == EncodedColumn::kBlockRows,
              "an encoded block holds one granule");

uint64_t nextPartId()
{
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Part::Part(PartContents contents)
    : contents_(std::move(contents)),
      checked_(std::make_unique<std::once_flag[]>(contents_.columns.size())),
      id_(nextPartId())
{
}

void Part::checkOnFirstUse(size_t column_index) const
{
    checkIndex(column_index, contents_.columns.size(), "column");
    if (!contents_.first_use_checks.empty())
    {
        std::call_once(checked_[column_index], contents_.first_use_checks[column_index],
                       std::cref(contents_));
    }
}

bool Part::isEncoded(size_t column_index) const
{
    checkIndex(column_index, contents_.columns.size(), "column");
    return column_index < contents_.encoded.size() && contents_.encoded[column_index] != nullptr;
}

ColumnView Part::read(size_t column_index, size_t first_row, size_t rows, Column& buffer) const
{
    checkOnFirstUse(column_index);
    if (first_row % kGranuleRows != 0 || first_row + rows > this->rows())
    {
        throw Exception(ErrorCode::kLogicalError, "part read of rows " + std::to_string(first_row) +
                                                      " + " + std::to_string(rows) +
                                                      " is not granule-aligned within the part");
    }
    if (!isEncoded(column_index))
    {
        return contents_.columns[column_index].slice(first_row, rows);
    }
    buffer.clear();
    const size_t first_granule = first_row / kGranuleRows;
    const size_t end_granule = (first_row + rows + kGranuleRows - 1) / kGranuleRows;
    contents_.encoded[column_index]->read(first_granule, end_granule - first_granule, buffer);
    // A read ending inside a granule decodes the whole granule: the view ends at the rows.
    return buffer.view().slice(0, rows);
}

size_t Part::bytesOf(size_t column_index, size_t first_row, size_t rows) const
{
    if (!isEncoded(column_index))
    {
        return columnBytes(column_index) / std::max<size_t>(this->rows(), 1) * rows;
    }
    const size_t first_granule = first_row / kGranuleRows;
    const size_t end_granule = (first_row + rows + kGranuleRows - 1) / kGranuleRows;
    return contents_.encoded[column_index]->bytes(first_granule, end_granule - first_granule);
}

size_t Part::columnBytes(size_t column_index) const
{
    checkIndex(column_index, contents_.column_bytes.size(), "column");
    return contents_.column_bytes[column_index];
}

ColumnView Part::granuleMin(size_t sort_key_index) const
{
    checkIndex(sort_key_index, contents_.granule_min.size(), "sort key");
    return contents_.granule_min[sort_key_index].view();
}

ColumnView Part::granuleMax(size_t sort_key_index) const
{
    checkIndex(sort_key_index, contents_.granule_max.size(), "sort key");
    return contents_.granule_max[sort_key_index].view();
}

}  // namespace granary
