#pragma once

#include <simdjson.h>

#include "engine/columns/column.h"
#include "engine/formats/json_column.h"

// JSON values parsed by simdjson's DOM, appended to columns: JSONEachRow's fields.
namespace granary::ingest
{

/// Appends a JSON scalar to a column of a non-nested type: numbers to numeric columns
/// (range-checked, kCannotParseInput), strings to any as its text form ("2024-01-02" for a
/// Date, "42" for a UInt64), true/false 1/0, null the default. Another kind is kTypeMismatch.
void appendJsonScalar(simdjson::dom::element value, Column& column);

/// Appends a JSON object as a row of JSON column `column`: nested objects flatten into dotted
/// paths ({"a":{"b":1}} is a.b), nulls are dropped, each value is stored tagged (Dynamic):
/// integers Int64 (UInt64 above its range), other numbers Float64, strings String, booleans
/// Bool, arrays Array(Dynamic), objects inside arrays JSON. Typed paths take their type
/// (appendJsonScalar's rules). More than dynamic::kMaxJsonPaths paths is kLimitExceeded.
void appendJsonObject(simdjson::dom::object object, const JsonColumnCodec& codec, Column& column);

/// Appends JSON text holding an object (or null: no paths) as a row of JSON column `column`,
/// as appendJsonObject; malformed text is kCannotParseInput, another value kTypeMismatch.
void appendJsonText(std::string_view text, const JsonColumnCodec& codec, Column& column);

}  // namespace granary::ingest
