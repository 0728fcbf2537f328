#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/data_type.h"
#include "engine/columns/types.h"
#include "engine/storage/encoding/block_codec.h"

namespace granary
{

struct ColumnSchema
{
    std::string name;
    DataType type;
    /// The codec over the column's encoded blocks (`CODEC(...)`; LZ4 by default).
    encoding::CodecChoice codec;
};

/// How a table's parts lay their columns out on disk (in-memory tables keep columns as they
/// are). `SETTINGS storage_format = 'raw' | 'compressed'` in CREATE TABLE.
enum class PartFormat
{
    kRaw,      ///< The values as they lie in memory, mapped by queries without copying.
    kEncoded,  ///< Per granule the cheapest encoding, with the column's codec (encoded_column.h).
};

std::string_view partFormatName(PartFormat format);
/// Throws kBadArguments for a name that is neither 'raw' nor 'compressed'.
PartFormat partFormatFromName(std::string_view name);

/// A table's columns and the key its parts are sorted by.
struct TableSchema
{
    std::vector<ColumnSchema> columns;
    /// From ORDER BY, else PRIMARY KEY: column names (a key expression sorts by the one column
    /// it reads, see tableSchemaOf in engine/session/create_table.h).
    std::vector<std::string> sort_key;
    PartFormat part_format = PartFormat::kEncoded;

    /// Exact, case-sensitive.
    std::optional<size_t> indexOf(std::string_view column) const;
    /// Indexes of the columns an INSERT's column list names, in its order; all columns in
    /// schema order when `names` is empty. kUnknownColumn or kBadArguments (named twice) naming
    /// the column.
    std::vector<size_t> fieldColumns(const std::vector<std::string>& names) const;
    /// A block with every column, named and typed, and no rows: what loaders fill.
    Block emptyBlock() const;
    /// Column indexes of the sort key, in key order.
    std::vector<size_t> sortKeyColumns() const;

    /// Throws kBadArguments for a table without columns, a column defined twice or a sort-key
    /// column named twice, kUnknownColumn for a sort key naming no column, kNotImplemented
    /// for an Array or Map in the key; each message names the culprit.
    void validate(std::string_view table) const;
};

bool operator==(const ColumnSchema& left, const ColumnSchema& right);
bool operator==(const TableSchema& left, const TableSchema& right);

}  // namespace granary
