#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/columns/column.h"
#include "engine/columns/types.h"

namespace granary
{

/// Text → values in ClickHouse's syntax: integers (range-checked, optional sign), floats
/// (with inf / nan), Date 'YYYY-MM-DD' and DateTime 'YYYY-MM-DD hh:mm:ss' (UTC; a bare date
/// is midnight; '0000-00-00' is the zero value as in ClickHouse).
enum class ParseStatus
{
    kOk,
    kMalformed,
    kOutOfRange,
};

template <typename T>
ParseStatus parseInteger(std::string_view text, T& value);
ParseStatus parseFloat(std::string_view text, float& value);
ParseStatus parseFloat(std::string_view text, double& value);
/// Days since 1970-01-01, 1970-01-01 to 2149-06-06.
ParseStatus parseDate(std::string_view text, uint16_t& days);
/// Seconds since 1970-01-01 00:00:00 UTC, up to 2106-02-07 06:28:15.
ParseStatus parseDateTime(std::string_view text, uint32_t& seconds);
/// DateTime64(precision) ticks: a DateTime with up to `precision` digits after a dot, or the
/// ticks as an integer.
ParseStatus parseDateTime64(std::string_view text, uint8_t precision, int64_t& ticks);

/// Appends `text` parsed as a value of the column's type (strings: the text itself; Bool
/// true/false/1/0); appends nothing unless kOk. Arrays and maps have no text input here:
/// Exception kNotImplemented.
ParseStatus appendParsedValue(std::string_view text, Column& column);

/// "cannot parse 'abc' as UInt32" (with ": out of range" for range errors); long text is
/// truncated.
std::string parseFailureMessage(std::string_view text, TypeId type, ParseStatus status);

/// Decodes TSV backslash escapes (\t \n \r \b \f \v \a \0 \\ \' \" \/ \xHH) of `field` onto
/// `out`; false for an unknown or unfinished escape.
bool unescapeTsvField(std::string_view field, std::string& out);

}  // namespace granary
