#include "engine/datagen/string_column.h"

namespace granary::datagen
{

void StringColumn::reserve(size_t rows, size_t bytes)
{
    offsets_.reserve(rows + 1);
    chars_.reserve(bytes);
}

void StringColumn::append(std::string_view value)
{
    chars_.append(value);
    finishRow();
}

}  // namespace granary::datagen
