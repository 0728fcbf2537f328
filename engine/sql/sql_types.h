#pragma once

#include <optional>
#include <string_view>

#include "engine/columns/types.h"

namespace granary::sql
{

/// The column type a CREATE TABLE type name stands for, case-insensitively; nullopt for names
/// Granary does not know. SQL names map as ClickHouse maps them:
///
///     TINYINT → Int8    SMALLINT → Int16    INT, INTEGER → Int32    BIGINT → Int64
///     FLOAT, REAL → Float32    DOUBLE [PRECISION] → Float64
///     TEXT, VARCHAR(n), CHAR, CHAR(n), CHARACTER(n) → String (the length is not enforced)
///     DATE → Date    TIMESTAMP, DATETIME → DateTime
///
/// and Granary's own names (UInt8..UInt64, Int8..Int64, Float32, Float64, String, Date,
/// DateTime, Bool) stand for themselves. DOUBLE PRECISION arrives here as "DOUBLE". Types
/// with parameters (DateTime64(P), Array(T)...) are data_type.h's.
std::optional<TypeId> typeFromSqlName(std::string_view name);

/// Whether `name` starts a type: a name above or a parametric family (Array, Map,
/// LowCardinality, DateTime64, Nested, Boolean).
bool isTypeName(std::string_view name);

/// True for the string types that take a length: VARCHAR(255), CHAR(1), CHARACTER(1).
bool sqlTypeTakesLength(std::string_view name);

}  // namespace granary::sql
