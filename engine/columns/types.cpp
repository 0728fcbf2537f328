#include "engine/columns/types.h"

#include <array>

namespace granary
{
namespace
{

struct TypeInfo
{
    TypeId id;
    std::string_view name;
    size_t width;
};

constexpr std::array<TypeInfo, 13> kTypes = {{
    {TypeId::UInt8, "UInt8", 1},
    {TypeId::UInt16, "UInt16", 2},
    {TypeId::UInt32, "UInt32", 4},
    {TypeId::UInt64, "UInt64", 8},
    {TypeId::Int8, "Int8", 1},
    {TypeId::Int16, "Int16", 2},
    {TypeId::Int32, "Int32", 4},
    {TypeId::Int64, "Int64", 8},
    {TypeId::Float32, "Float32", 4},
    {TypeId::Float64, "Float64", 8},
    {TypeId::Date, "Date", 2},
    {TypeId::DateTime, "DateTime", 4},
    {TypeId::String, "String", 0},
}};

const TypeInfo& info(TypeId type)
{
    return kTypes[static_cast<size_t>(type)];
}

}  // namespace

std::string_view typeName(TypeId type)
{
    return info(type).name;
}

std::optional<TypeId> typeFromName(std::string_view name)
{
    for (const TypeInfo& type : kTypes)
    {
        if (type.name == name)
        {
            return type.id;
        }
    }
    return std::nullopt;
}

size_t fixedWidth(TypeId type)
{
    return info(type).width;
}

bool isInteger(TypeId type)
{
    return !isFloat(type) && !isString(type);
}

bool isSignedInteger(TypeId type)
{
    return type == TypeId::Int8 || type == TypeId::Int16 || type == TypeId::Int32 ||
           type == TypeId::Int64;
}

bool isFloat(TypeId type)
{
    return type == TypeId::Float32 || type == TypeId::Float64;
}

}  // namespace granary
