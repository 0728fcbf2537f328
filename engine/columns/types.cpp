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
};

/// Indexed by TypeId. The parametric types' names are their families': data_type.h spells them
/// out with their parameters.
constexpr std::array<TypeInfo, 18> kTypes = {{
    {TypeId::UInt8, "UInt8"},
    {TypeId::UInt16, "UInt16"},
    {TypeId::UInt32, "UInt32"},
    {TypeId::UInt64, "UInt64"},
    {TypeId::Int8, "Int8"},
    {TypeId::Int16, "Int16"},
    {TypeId::Int32, "Int32"},
    {TypeId::Int64, "Int64"},
    {TypeId::Float32, "Float32"},
    {TypeId::Float64, "Float64"},
    {TypeId::Date, "Date"},
    {TypeId::DateTime, "DateTime"},
    {TypeId::String, "String"},
    {TypeId::Bool, "Bool"},
    {TypeId::DateTime64, "DateTime64"},
    {TypeId::Array, "Array"},
    {TypeId::Map, "Map"},
    {TypeId::Json, "JSON"},
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
        if (type.name == name && !isParametric(type.id))
        {
            return type.id;
        }
    }
    return std::nullopt;
}

bool isParametric(TypeId type)
{
    return type == TypeId::DateTime64 || isNested(type);
}

bool isInteger(TypeId type)
{
    return !isFloat(type) && !hasOffsets(type);
}

bool isSignedInteger(TypeId type)
{
    return type == TypeId::Int8 || type == TypeId::Int16 || type == TypeId::Int32 ||
           type == TypeId::Int64 || type == TypeId::DateTime64;
}

bool isFloat(TypeId type)
{
    return type == TypeId::Float32 || type == TypeId::Float64;
}

}  // namespace granary
