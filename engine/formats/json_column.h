#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/column.h"
#include "engine/formats/dynamic_value.h"

namespace granary
{

/// What reading values into a JSON column needs of its type, worked out once per column: the
/// typed paths' encodings and the SKIP paths. A JSON column row is its paths (child 0) and their
/// tagged values (child 1): typed paths' values are stored tagged with their type's code too, so
/// that every stored value reads alike.
class JsonColumnCodec
{
public:
    explicit JsonColumnCodec(const DataType& type);

    /// One RowBinary JSON value (dynamic::readJsonObject) appended as a row of `column`.
    void readRowBinary(ingest::BinaryCursor& cursor, Column& column,
                       const ingest::BinaryLimits& limits) const;

    /// Appends one path of the row being built; `value` is tagged, or untagged in the typed
    /// path's type when `typed` is not dynamic::npos. SKIP paths are dropped.
    void appendPath(std::string_view path, size_t typed, std::string_view value,
                    Column& column) const;

    size_t typedPathIndex(std::string_view path) const
    {
        return dynamic::typedPathIndex(type_.typed_paths, path);
    }
    const DataType& typedPathType(size_t typed) const { return type_.typed_path_types[typed]; }

private:
    DataType type_;
    std::vector<dynamic::BinaryType> typed_types_;
    std::vector<std::string> typed_codes_;  ///< Per typed path, its type's code bytes.
};

/// Appends JSON row `row` of `column` as a JSON object, nested at the paths' dots.
void appendJsonRowText(const ColumnView& column, size_t row, std::string& out);

/// Appends the value of `path` in JSON row `row` as text (dynamic::TextStyle::kText), or
/// nothing when the row lacks it. Returns whether the row has it.
bool appendJsonPathText(const ColumnView& column, size_t row, std::string_view path,
                        std::string& out);

/// Appends the value of `path` in JSON row `row` to `out`, a column of a non-nested type
/// (a typed path's): the value when the row has the path stored in that type, else the type's
/// default.
void appendJsonPathValue(const ColumnView& column, size_t row, std::string_view path, Column& out);

}  // namespace granary
