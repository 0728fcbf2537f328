#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/columns/column_view.h"

namespace granary
{

/// One value as text: the text TSV writes, before escaping. Integers in decimal, floats in
/// their shortest round-trip form (1 for 1.0, nan, inf, -inf), Date as YYYY-MM-DD, DateTime as
/// YYYY-MM-DD hh:mm:ss in UTC, DateTime64(P) with P digits after a dot, Bool as true or false,
/// strings as they are, Array as [1,'a'] and Map as {'k':'v'} (ClickHouse's text forms).
std::string formatValue(const ColumnView& column, size_t row);
/// Appends formatValue(column, row) to `out`.
void appendValue(const ColumnView& column, size_t row, std::string& out);

/// Appends the shortest text that parses back to `value`.
void appendFloat(double value, std::string& out);
void appendFloat(float value, std::string& out);

/// Appends YYYY-MM-DD for `days` since 1970-01-01.
void formatDate(uint16_t days, std::string& out);
/// Appends YYYY-MM-DD hh:mm:ss for `seconds` since the epoch, in UTC.
void formatDateTime(uint32_t seconds, std::string& out);
/// Appends YYYY-MM-DD hh:mm:ss.fff for `ticks` of 10^-precision seconds since the epoch.
void formatDateTime64(int64_t ticks, uint8_t precision, std::string& out);

}  // namespace granary
