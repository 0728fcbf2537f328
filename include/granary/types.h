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
/// Bytes per value of a fixed-width type; 0 for String.
size_t fixedWidth(TypeId type);
inline bool isString(TypeId type)
{
    return type == TypeId::String;
}

}  // namespace granary
