#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "engine/columns/block.h"
#include "engine/formats/json_column.h"
#include "engine/ingest/binary_cursor.h"
#include "engine/storage/table_schema.h"

namespace granary::ingest
{

/// Decodes ClickHouse's RowBinary: rows back to back, each the listed columns' values in
/// order, with no count or separator. Integers and floats little-endian, Date UInt16 days,
/// DateTime UInt32 seconds, DateTime64(P) Int64 ticks, Bool one byte 0 or 1 (another byte is
/// kIncorrectData: it means the reader lost its place), String a VarUInt length and the
/// bytes, Array a VarUInt count and the elements, Map a VarUInt count and key, value pairs,
/// JSON ClickHouse's binary JSON objects (dynamic_value.h); LowCardinality(T) is T.
class RowBinaryReader
{
public:
    /// Rows up to this many go into one block.
    static constexpr size_t kBlockRows = 65536;

    /// Field i of each row fills schema column field_columns[i]; the others get defaults.
    /// `json_as_string`: JSON values are Strings of JSON text (ClickHouse's
    /// input_format_binary_read_json_as_string), not binary JSON objects.
    RowBinaryReader(const TableSchema& schema, std::vector<size_t> field_columns,
                    BinaryLimits limits = {}, bool json_as_string = false);

    /// RowBinaryWithNamesAndTypes: reads the header (VarUInt count, the names, the type
    /// names) off `cursor`; a name the table lacks is kNoSuchColumnInTable, a type other than
    /// the column's kTypeMismatch, both naming the column.
    static RowBinaryReader fromHeader(const TableSchema& schema, BinaryCursor& cursor,
                                      BinaryLimits limits = {}, bool json_as_string = false);

    /// Every row up to the end of `cursor`, which must be a row's end: a value cut short is
    /// kCannotReadAllData naming the row (from 1), the column and the byte offset.
    std::vector<Block> readAll(BinaryCursor& cursor) const;

private:
    void readRow(BinaryCursor& cursor, std::vector<Column*>& fields) const;
    /// One value of any type; the fixed-width and String fields of a row take shortcuts.
    void readValue(BinaryCursor& cursor, Column& column) const;
    /// Names the column of field `field` in an error thrown while reading it.
    [[noreturn]] void rethrowInField(const Exception& error, size_t field) const;
    void fillDefaults(Block& block, size_t rows) const;
    /// One JSON value, binary or (json_as_string_) text, as a row of `column`.
    void readJson(BinaryCursor& cursor, const JsonColumnCodec& codec, Column& column) const;

    const TableSchema& schema_;
    std::vector<size_t> field_columns_;
    /// Per field, the bytes of its fixed-width values; 0 for the others (String, Bool, Array
    /// and Map, read by type).
    std::vector<size_t> field_widths_;
    /// Per field: how a JSON column reads its values (empty for other types).
    std::vector<std::optional<JsonColumnCodec>> json_codecs_;
    std::vector<bool> filled_;  ///< Per schema column: some field fills it.
    BinaryLimits limits_;
    bool json_as_string_;
};

}  // namespace granary::ingest
