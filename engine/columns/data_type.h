#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/column_view.h"
#include "engine/columns/types.h"

namespace granary
{

/// A column's full type: its TypeId plus what parametric types need (DateTime64's precision,
/// Array's element, Map's key and value) and LowCardinality, which changes how storage encodes
/// the values and nothing else (functions see T's values, as in ClickHouse).
struct DataType
{
    /// DateTime64 without a precision, as in ClickHouse: milliseconds.
    static constexpr uint8_t kDefaultDateTime64Precision = 3;
    /// DateTime64 keeps at most nanoseconds (Int64 ticks reach 2262 at that scale).
    static constexpr uint8_t kMaxDateTime64Precision = 9;

    TypeId id = TypeId::UInt8;
    uint8_t precision = 0;
    bool low_cardinality = false;
    std::vector<DataType> children;  ///< Array: the element; Map: key, value.

    DataType() = default;
    /// A type without parameters (not DateTime64, Array or Map).
    DataType(TypeId scalar) : id(scalar) {}  // NOLINT: every scalar TypeId is a DataType.

    static DataType dateTime64(uint8_t precision);
    static DataType array(DataType element);
    static DataType map(DataType key, DataType value);
    static DataType lowCardinality(DataType values);
    /// The type a view holds (LowCardinality is not part of a view).
    static DataType of(const ColumnView& view);

    /// The type of the values: this one without LowCardinality at any level (what columns
    /// and views hold).
    DataType valueType() const;

    const DataType& element() const { return children.at(0); }
    const DataType& key() const { return children.at(0); }
    const DataType& value() const { return children.at(1); }

    friend bool operator==(const DataType&, const DataType&) = default;
};

/// ClickHouse's spelling: "DateTime64(9)", "Map(LowCardinality(String), String)".
std::string dataTypeName(const DataType& type);

/// Parses ClickHouse's spelling (names case-sensitive, spaces anywhere between tokens), plus
/// `DateTime64(P, 'UTC')` (other time zones are refused: Granary keeps UTC) and `DateTime('UTC')`.
/// Throws Exception kUnknownType naming the offending part of `text`.
DataType parseDataType(std::string_view text);

}  // namespace granary
