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
/// Array's element, Map's key and value, JSON's typed paths), LowCardinality, which changes
/// how storage encodes the values and nothing else (functions see T's values, as in ClickHouse),
/// and Nullable, which lets rows be NULL (a validity bitmap beside T's values).
struct DataType
{
    /// DateTime64 without a precision, as in ClickHouse: milliseconds.
    static constexpr uint8_t kDefaultDateTime64Precision = 3;
    /// DateTime64 keeps at most nanoseconds (Int64 ticks reach 2262 at that scale).
    static constexpr uint8_t kMaxDateTime64Precision = 9;

    TypeId id = TypeId::UInt8;
    uint8_t precision = 0;
    bool low_cardinality = false;
    /// Nullable(T): a row may be NULL. Only scalar T (ClickHouse refuses Nullable(Array(...))).
    bool nullable = false;
    /// Array: the element; Map: key, value; JSON: String paths, String Dynamic-encoded values
    /// (the children of its columns, whatever its typed paths).
    std::vector<DataType> children;
    /// JSON(a.b Int64, ...): paths whose values clients send untagged, in this type; kept
    /// tagged like the others once read. Parallel vectors: a DataType cannot hold pairs of
    /// itself.
    std::vector<std::string> typed_paths;
    std::vector<DataType> typed_path_types;
    /// JSON(SKIP a.b): paths (and the paths under them) dropped on input.
    std::vector<std::string> skipped_paths;
    /// AggregateFunction(f(parameters), T...): a String column of f's states in the
    /// partial-state format (what fState gives, what fMerge takes), f with its combinators
    /// (`uniqIf`), its parameters and argument types. Empty `state_function`: not one.
    std::string state_function;
    std::vector<double> state_parameters;
    std::vector<DataType> state_arguments;

    DataType() = default;
    /// A type without parameters (not DateTime64, Array, Map or JSON).
    DataType(TypeId scalar) : id(scalar) {}  // NOLINT: every scalar TypeId is a DataType.

    static DataType dateTime64(uint8_t precision);
    static DataType array(DataType element);
    static DataType map(DataType key, DataType value);
    static DataType lowCardinality(DataType values);
    static DataType makeNullable(DataType values);
    /// This type without Nullable (T of Nullable(T)).
    DataType withoutNullable() const;
    /// JSON without typed or skipped paths.
    static DataType json();
    static DataType aggregateState(std::string function, std::vector<double> parameters,
                                   std::vector<DataType> arguments);
    bool isAggregateState() const { return !state_function.empty(); }
    /// The type a view holds (LowCardinality is not part of a view); Nullable when the view
    /// has a validity bitmap.
    static DataType of(const ColumnView& view);

    /// The type of the values: this one without LowCardinality at any level, JSON without
    /// its typed and SKIP paths, AggregateFunction(...) as String (what columns and views
    /// hold).
    DataType valueType() const;

    const DataType& element() const { return children.at(0); }
    const DataType& key() const { return children.at(0); }
    const DataType& value() const { return children.at(1); }

    friend bool operator==(const DataType&, const DataType&) = default;
};

/// ClickHouse's spelling: "DateTime64(9)", "Map(LowCardinality(String), String)",
/// "LowCardinality(Nullable(String))",
/// "JSON(a.b Int64, SKIP c)", "AggregateFunction(quantiles(0.5, 0.9), Float64)".
std::string dataTypeName(const DataType& type);

/// The type a binary format (the native protocol, RowBinaryWithNamesAndTypes) declares for a
/// column of `type`: AggregateFunction(...) as String, since the states are Granary's bytes,
/// which a ClickHouse client could not read as its own.
DataType binaryFormatType(const DataType& type);

/// Parses ClickHouse's spelling (names case-sensitive, spaces anywhere between tokens), plus
/// `DateTime64(P, 'UTC')` (other time zones are refused: Granary keeps UTC) and `DateTime('UTC')`.
/// JSON takes typed paths, SKIP paths and ClickHouse's max_dynamic_paths/max_dynamic_types
/// limits (accepted; Granary keeps every path), at the top of a column's type only.
/// Throws Exception kUnknownType naming the offending part of `text`.
DataType parseDataType(std::string_view text);

}  // namespace granary
