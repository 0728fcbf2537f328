#pragma once

#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/storage/table_schema.h"

namespace granary::ingest
{

/// Decodes JSONEachRow: one JSON object per line, keys naming columns. Numbers fill numeric
/// columns (range-checked), strings any column as its text form ("2024-01-02" for a Date,
/// "42" for a UInt64, as ClickHouse writes 64-bit integers), true/false 1/0, null and absent
/// keys the column's default; a JSON column takes an object (json_values.h). A key outside
/// `field_columns` (the INSERT's column list) is kIncorrectData, a value of the wrong kind
/// kTypeMismatch, malformed JSON kCannotParseInput; each names the line and the column. `padded`:
/// kInputPaddingBytes (insert_input.h) past the end of `text` are readable, so it is parsed in
/// place; otherwise a padded copy is made.
std::vector<Block> readJsonEachRow(const TableSchema& schema,
                                   const std::vector<size_t>& field_columns, std::string_view text,
                                   bool padded = false);

}  // namespace granary::ingest
