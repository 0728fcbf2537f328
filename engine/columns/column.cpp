#include "engine/columns/column.h"

#include <algorithm>

namespace granary
{

void Column::appendRange(const ColumnView& source, size_t begin, size_t count)
{
    const size_t first_row = size();
    appendValues(source, begin, count);
    syncValidity();
    if (source.hasValidity())
    {
        for (size_t i = 0; i < count; ++i)
        {
            if (!source.isValid(begin + i))
            {
                setNull(first_row + i);
            }
        }
    }
}

void Column::setNull(size_t row)
{
    if (validity_.empty())
    {
        growValidity();
    }
    validity_[row >> 3] &= static_cast<uint8_t>(~(1u << (row & 7)));
}

void Column::growValidity()
{
    const size_t bytes = (size() + 7) / 8;
    if (validity_.size() < bytes || validity_.empty())
    {
        // At least one byte, so that a bitmap exists once a NULL is marked even at zero rows.
        const size_t old_size = validity_.size();
        validity_.resize(std::max<size_t>(bytes, 1));
        std::memset(validity_.data() + old_size, 0xFF, validity_.size() - old_size);
    }
}

void Column::appendValues(const ColumnView& source, size_t begin, size_t count)
{
    if (isString(type_))
    {
        const uint64_t first = source.offsets[begin];
        const uint64_t last = source.offsets[begin + count];
        const uint64_t base = chars_.size();
        chars_.insert(chars_.end(), source.chars + first, source.chars + last);
        // Resized, not reserved: reserve grows to exactly what is asked, so appending row by
        // row would copy the offsets on every call.
        const size_t old_rows = offsets_.size();
        offsets_.resize(old_rows + count);
        for (size_t i = 0; i < count; ++i)
        {
            offsets_[old_rows + i] = base + source.offsets[begin + i + 1] - first;
        }
        return;
    }
    const char* values = static_cast<const char*>(source.data) + begin * width();
    bytes_.insert(bytes_.end(), values, values + count * width());
}

void Column::reserve(size_t rows, size_t string_bytes)
{
    if (isString(type_))
    {
        offsets_.reserve(rows + 1);
        chars_.reserve(string_bytes);
    }
    else
    {
        bytes_.reserve(rows * width());
    }
}

}  // namespace granary
