#include "engine/datagen/hits_schema.h"

#include <array>

namespace granary::datagen
{
namespace
{

constexpr std::array<HitsColumnInfo, HitsColumn::kCount> kSchema = {{
#define GRANARY_HITS_COLUMN_INFO(name, type) {#name, TypeId::type},
    GRANARY_HITS_COLUMNS(GRANARY_HITS_COLUMN_INFO)
#undef GRANARY_HITS_COLUMN_INFO
}};

}  // namespace

std::span<const HitsColumnInfo> hitsSchema()
{
    return kSchema;
}

std::string hitsCreateTableSql(std::string_view string_codec)
{
    std::string sql = "CREATE TABLE hits\n(\n";
    for (const HitsColumnInfo& column : kSchema)
    {
        sql += "    ";
        sql += column.name;
        sql += ' ';
        sql += typeName(column.type);
        if (column.type == TypeId::String && !string_codec.empty())
        {
            sql += " CODEC(";
            sql += string_codec;
            sql += ')';
        }
        sql += ",\n";
    }
    sql += "    PRIMARY KEY (CounterID, EventDate, UserID, EventTime, WatchID)\n)";
    return sql;
}

}  // namespace granary::datagen
