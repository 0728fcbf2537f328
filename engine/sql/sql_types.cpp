#include "engine/sql/sql_types.h"

#include <array>

#include "engine/sql/keywords.h"

namespace granary::sql
{
namespace
{

struct SqlTypeName
{
    std::string_view name;
    TypeId type;
    bool takes_length;
};

constexpr std::array<SqlTypeName, 15> kSqlTypeNames = {{
    {"TINYINT", TypeId::Int8, false},
    {"SMALLINT", TypeId::Int16, false},
    {"INT", TypeId::Int32, false},
    {"INTEGER", TypeId::Int32, false},
    {"BIGINT", TypeId::Int64, false},
    {"FLOAT", TypeId::Float32, false},
    {"REAL", TypeId::Float32, false},
    {"DOUBLE", TypeId::Float64, false},
    {"TEXT", TypeId::String, false},
    {"VARCHAR", TypeId::String, true},
    {"CHAR", TypeId::String, true},
    {"CHARACTER", TypeId::String, true},
    {"DATE", TypeId::Date, false},
    {"TIMESTAMP", TypeId::DateTime, false},
    {"DATETIME", TypeId::DateTime, false},
}};

const SqlTypeName* findSqlTypeName(std::string_view name)
{
    for (const SqlTypeName& sql_type : kSqlTypeNames)
    {
        if (equalsIgnoringCase(name, sql_type.name))
        {
            return &sql_type;
        }
    }
    return nullptr;
}

}  // namespace

std::optional<TypeId> typeFromSqlName(std::string_view name)
{
    if (const SqlTypeName* sql_type = findSqlTypeName(name))
    {
        return sql_type->type;
    }
    // TypeId numbers its types 0..Json without gaps (types.cpp indexes its table by them).
    for (int id = 0; id <= static_cast<int>(TypeId::Json); ++id)
    {
        const auto type = static_cast<TypeId>(id);
        if (!isParametric(type) && equalsIgnoringCase(name, typeName(type)))
        {
            return type;
        }
    }
    return std::nullopt;
}

bool isTypeName(std::string_view name)
{
    for (const std::string_view family :
         {"Array", "Map", "JSON", "LowCardinality", "DateTime64", "Nested", "Boolean"})
    {
        if (name == family)
        {
            return true;
        }
    }
    return typeFromSqlName(name).has_value();
}

bool sqlTypeTakesLength(std::string_view name)
{
    const SqlTypeName* sql_type = findSqlTypeName(name);
    return sql_type != nullptr && sql_type->takes_length;
}

}  // namespace granary::sql
