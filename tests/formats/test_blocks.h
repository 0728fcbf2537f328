#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"

namespace granary::test
{

inline Column stringColumn(const std::vector<std::string>& values)
{
    Column column(TypeId::String);
    for (const std::string& value : values)
    {
        column.appendString(value);
    }
    return column;
}

template <typename T>
Column fixedColumn(TypeId type, const std::vector<T>& values)
{
    Column column(type);
    for (const T value : values)
    {
        column.append(value);
    }
    return column;
}

}  // namespace granary::test
