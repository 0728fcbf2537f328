#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/columns/block.h"

namespace granary::clickbench
{

/// One result value in a form both engines' results convert to: integers of any width
/// (DuckDB sums are 128-bit), floats, strings, dates as days and timestamps as microseconds
/// since the epoch (DuckDB's units; Granary's seconds are scaled).
struct Value
{
    enum class Kind : uint8_t
    {
        Null,
        Integer,
        Float,
        String,
        Date,
        Timestamp,
        List,  ///< An Array (Granary) or LIST (DuckDB): `elements`.
    };

    Kind kind = Kind::Null;
    __int128 integer = 0;  ///< Integer, Date (days) and Timestamp (microseconds).
    double real = 0;
    std::string text;
    std::vector<Value> elements;

    static Value null() { return {}; }
    static Value ofInteger(__int128 value) { return {Kind::Integer, value, 0, {}, {}}; }
    static Value ofFloat(double value) { return {Kind::Float, 0, value, {}, {}}; }
    static Value ofString(std::string value) { return {Kind::String, 0, 0, std::move(value), {}}; }
    static Value ofDate(int64_t days) { return {Kind::Date, days, 0, {}, {}}; }
    static Value ofTimestamp(int64_t microseconds)
    {
        return {Kind::Timestamp, microseconds, 0, {}, {}};
    }
    static Value ofList(std::vector<Value> elements)
    {
        return {Kind::List, 0, 0, {}, std::move(elements)};
    }
};

/// Ticks of 10^-precision seconds in whole microseconds, rounded down: DateTime64 results of
/// Granary and DuckDB's TIMESTAMP_NS alike.
int64_t microsecondsOf(int64_t ticks, uint8_t precision);

/// Text for messages: numbers in decimal, strings quoted, dates and timestamps in ISO form.
std::string formatValue(const Value& value);

/// A query result as rows of Values, with its column names.
struct ResultTable
{
    std::vector<std::string> column_names;
    std::vector<std::vector<Value>> rows;
};

ResultTable resultTableOf(const Block& block);

/// A result with the seconds the engine took to produce it (conversion to rows excluded).
struct TimedResult
{
    ResultTable table;
    double seconds = 0;
};

}  // namespace granary::clickbench
