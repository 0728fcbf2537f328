#pragma once

// A value an aggregate state keeps from its input: a number as itself, a String as a view of
// its bytes copied into the partial's arena (the input block may go away before the state).
// These helpers read, keep, serialize and output such values for either kind, so that a state
// template is written once for numbers and strings.

#include <string>
#include <string_view>
#include <type_traits>

#include "alloc/arena.h"
#include "engine/aggregation/state_bytes.h"
#include "engine/columns/column.h"

namespace granary
{

template <typename T>
inline constexpr bool kIsStringValue = std::is_same_v<T, std::string_view>;

/// Row `row` of `column`, whose values are stored as T (std::string_view for String).
template <typename T>
T readValue(const ColumnView& column, size_t row)
{
    if constexpr (kIsStringValue<T>)
    {
        return column.stringAt(row);
    }
    else
    {
        return column.valueAt<T>(row);
    }
}

/// `value` as a state keeps it: strings are copied into `arena`.
template <typename T>
T keepValue(const T& value, Arena& arena)
{
    if constexpr (kIsStringValue<T>)
    {
        return arena.insert(value);
    }
    else
    {
        return value;
    }
}

/// Appends `value` to a serialized state (a string as its length and bytes).
template <typename T>
void appendStateField(std::string& out, const T& value)
{
    if constexpr (kIsStringValue<T>)
    {
        appendStateString(out, value);
    }
    else
    {
        appendStateValue(out, value);
    }
}

/// Reads what appendStateField wrote; a string views the serialized bytes.
template <typename T>
T readStateField(StateReader& reader)
{
    if constexpr (kIsStringValue<T>)
    {
        return reader.readString();
    }
    else
    {
        return reader.read<T>();
    }
}

/// Appends `value` as the next row of `to`.
template <typename T>
void appendResultValue(Column& to, const T& value)
{
    if constexpr (kIsStringValue<T>)
    {
        to.appendString(value);
    }
    else
    {
        to.append(value);
    }
}

}  // namespace granary
