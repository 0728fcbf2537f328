#include "engine/columns/column.h"

namespace granary
{

void Column::appendRange(const ColumnView& source, size_t begin, size_t count)
{
    if (isString(type_))
    {
        const uint64_t first = source.offsets[begin];
        const uint64_t last = source.offsets[begin + count];
        const uint64_t base = chars_.size();
        chars_.insert(chars_.end(), source.chars + first, source.chars + last);
        offsets_.reserve(offsets_.size() + count);
        for (size_t row = begin; row < begin + count; ++row)
        {
            offsets_.push_back(base + source.offsets[row + 1] - first);
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
