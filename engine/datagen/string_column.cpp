#include "engine/datagen/string_column.h"

#include <algorithm>

namespace granary::datagen
{

void TextBuffer::grow(size_t bytes)
{
    // Doubling keeps appends amortised constant; the slack is never part of the text.
    const size_t capacity = std::max(bytes + kShortCopy, 2 * capacity_);
    std::unique_ptr<char[]> grown(new char[capacity]);
    if (size_ > 0)
    {
        std::memcpy(grown.get(), bytes_.get(), size_);
    }
    bytes_ = std::move(grown);
    capacity_ = capacity;
}

void StringColumn::reserve(size_t rows, size_t bytes)
{
    offsets_.reserve(rows + 1);
    chars_.reserve(bytes);
}

void StringColumn::append(std::string_view value)
{
    chars_ += value;
    finishRow();
}

}  // namespace granary::datagen
