#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/columns/block.h"
#include "engine/storage/table_schema.h"

namespace granary::ingest::testing
{

/// A schema of the named, typed columns, in order.
inline TableSchema schemaOf(std::vector<std::pair<std::string, TypeId>> columns)
{
    TableSchema schema;
    for (auto& [name, type] : columns)
    {
        schema.columns.push_back({std::move(name), type, {}});
    }
    return schema;
}

/// Bytes from a hex string with optional spaces: "01 00 ff".
inline std::string hexBytes(std::string_view hex)
{
    std::string bytes;
    std::string digits;
    for (const char c : hex)
    {
        if (c != ' ')
        {
            digits += c;
        }
        if (digits.size() == 2)
        {
            bytes.push_back(static_cast<char>(std::stoi(digits, nullptr, 16)));
            digits.clear();
        }
    }
    return bytes;
}

}  // namespace granary::ingest::testing
