#pragma once

#include "engine/sql/statement.h"
#include "engine/storage/database.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// The schema a CREATE TABLE describes: its columns (CODEC chains parsed), its sort key (ORDER
/// BY, else PRIMARY KEY; `tuple()` is none) and SETTINGS storage_format. A key expression
/// reading one column (`toDateTime(Timestamp)`) sorts by that column: parts are then sorted by
/// the expression too when it is monotonic, and pruning reads the column's own bounds, which
/// stay exact either way. Throws what TableSchema::validate throws, kNotImplemented for a key
/// expression reading several columns or none, kUnknownCompressionMethod for a codec and
/// kBadArguments for an unknown storage_format, each naming the culprit.
TableSchema tableSchemaOf(const sql::CreateTableStatement& statement);

/// Runs CREATE TABLE on `database`, honouring OR REPLACE and IF NOT EXISTS.
void createTable(Database& database, const sql::CreateTableStatement& statement);

}  // namespace granary
