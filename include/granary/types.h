#pragma once

// Column types a host hands to Granary and gets back.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace granary
{

/// Column types. Date is days since 1970-01-01 (16 bits), DateTime seconds since the epoch
/// (32 bits, UTC), DateTime64 ticks of 10^-precision seconds since the epoch (64 bits, UTC; the
/// view's `precision`), Bool one byte 0 or 1, as in ClickHouse. Array, Map and JSON are nested:
/// a view's offsets bound each row's elements in its children (Array: the elements; Map: the
/// keys and the values; JSON: the paths, as Strings, and their values, as Strings holding
/// ClickHouse's binary Dynamic encoding: a type code, then the value in RowBinary).
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
    Bool,
    DateTime64,
    Array,
    Map,
    Json,
};

/// "UInt32", "String", ...
std::string_view typeName(TypeId type);
/// Bytes per value of a fixed-width type; 0 for String, Array, Map and JSON. Inline: loaders call
/// it per value.
constexpr size_t fixedWidth(TypeId type)
{
    switch (type)
    {
        case TypeId::UInt8:
        case TypeId::Int8:
        case TypeId::Bool:
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
        case TypeId::DateTime64:
            return 8;
        case TypeId::String:
        case TypeId::Array:
        case TypeId::Map:
        case TypeId::Json:
            return 0;
    }
    return 0;
}
inline bool isString(TypeId type)
{
    return type == TypeId::String;
}
/// Array, Map and JSON: values are ranges of their children's rows.
inline bool isNested(TypeId type)
{
    return type == TypeId::Array || type == TypeId::Map || type == TypeId::Json;
}
/// Children of a nested type's view: Array 1 (elements), Map and JSON 2 (keys or paths,
/// values); 0 for the others.
inline size_t nestedChildCount(TypeId type)
{
    return type == TypeId::Array ? 1 : isNested(type) ? 2 : 0;
}
/// String, Array, Map and JSON: a view's rows are bounded by rows + 1 offsets.
inline bool hasOffsets(TypeId type)
{
    return isString(type) || isNested(type);
}

}  // namespace granary
