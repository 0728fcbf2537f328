#pragma once

// Column types a host hands to Granary and gets back.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace granary
{

/// Column types. Date is days since 1970-01-01 (16 bits), DateTime seconds since the epoch
/// (32 bits, UTC), as in ClickHouse.
enum class TypeId : uint8_t
{
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Date,
    DateTime,
    String,
};

/// "UInt32", "String", ...
std::string_view typeName(TypeId type);
/// Bytes per value of a fixed-width type; 0 for String. Inline: loaders call it per value.
constexpr size_t fixedWidth(TypeId type)
{
    switch (type)
    {
        case TypeId::UInt8:
        case TypeId::Int8:
            return 1;
        case TypeId::UInt16:
        case TypeId::Int16:
        case TypeId::Date:
            return 2;
        case TypeId::UInt32:
        case TypeId::Int32:
        case TypeId::Float32:
        case TypeId::DateTime:
            return 4;
        case TypeId::UInt64:
        case TypeId::Int64:
        case TypeId::Float64:
            return 8;
        case TypeId::String:
            return 0;
    }
    return 0;
}
inline bool isString(TypeId type)
{
    return type == TypeId::String;
}

}  // namespace granary
