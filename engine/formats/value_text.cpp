#include "engine/formats/value_text.h"

#include <charconv>
#include <cmath>
#include <type_traits>

#include "engine/common/civil_date.h"
#include "engine/formats/json_column.h"
#include "engine/formats/text_escaping.h"

namespace granary
{
namespace
{

template <typename Number>
void appendNumber(Number value, std::string& out)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out.append(buffer, result.ptr);
}

template <typename Float>
void appendFloatValue(Float value, std::string& out)
{
    // to_chars may spell NaN "-nan"; ClickHouse prints every NaN as nan.
    if (std::isnan(value))
    {
        out += "nan";
        return;
    }
    appendNumber(value, out);
}

void appendTwoDigits(unsigned value, std::string& out)
{
    out += static_cast<char>('0' + value / 10);
    out += static_cast<char>('0' + value % 10);
}

}  // namespace

void appendFloat(double value, std::string& out)
{
    appendFloatValue(value, out);
}

void appendFloat(float value, std::string& out)
{
    appendFloatValue(value, out);
}

namespace
{

/// YYYY-MM-DD of a day number, also before the epoch.
void appendCivilDate(int64_t days, std::string& out)
{
    const CivilDate date = civilFromDays(days);
    appendNumber(date.year, out);
    out += '-';
    appendTwoDigits(date.month, out);
    out += '-';
    appendTwoDigits(date.day, out);
}

/// YYYY-MM-DD hh:mm:ss of seconds since the epoch, also before it.
void appendCivilTime(int64_t seconds, std::string& out)
{
    int64_t days = seconds / 86400;
    int64_t second_of_day = seconds % 86400;
    if (second_of_day < 0)
    {
        days -= 1;
        second_of_day += 86400;
    }
    appendCivilDate(days, out);
    out += ' ';
    appendTwoDigits(static_cast<unsigned>(second_of_day / 3600), out);
    out += ':';
    appendTwoDigits(static_cast<unsigned>(second_of_day / 60 % 60), out);
    out += ':';
    appendTwoDigits(static_cast<unsigned>(second_of_day % 60), out);
}

}  // namespace

void formatDate(uint16_t days, std::string& out)
{
    appendCivilDate(days, out);
}

void formatDateTime(uint32_t seconds, std::string& out)
{
    appendCivilTime(seconds, out);
}

void formatDateTime64(int64_t ticks, uint8_t precision, std::string& out)
{
    int64_t scale = 1;
    for (uint8_t digit = 0; digit < precision; ++digit)
    {
        scale *= 10;
    }
    // Floor division: a tick before the epoch belongs to the second before it.
    int64_t seconds = ticks / scale;
    int64_t fraction = ticks % scale;
    if (fraction < 0)
    {
        seconds -= 1;
        fraction += scale;
    }
    appendCivilTime(seconds, out);
    if (precision > 0)
    {
        const std::string digits = std::to_string(fraction);
        out += '.';
        out.append(precision - digits.size(), '0');
        out += digits;
    }
}

namespace
{

/// An Array or Map element as ClickHouse writes it inside brackets: strings and times quoted,
/// escaped as TSV escapes (quotes, backslashes and control characters), numbers bare.
void appendElement(const ColumnView& column, size_t row, std::string& out)
{
    const bool quoted = isString(column.type) || column.type == TypeId::Date ||
                        column.type == TypeId::DateTime || column.type == TypeId::DateTime64;
    if (!quoted)
    {
        appendValue(column, row, out);
        return;
    }
    std::string text;
    appendValue(column, row, text);
    out += '\'';
    appendTsvEscaped(text, out);
    out += '\'';
}

/// `[a,b]` or `{k:v,k:v}`.
void appendNested(const ColumnView& column, size_t row, std::string& out)
{
    const bool is_map = column.type == TypeId::Map;
    out += is_map ? '{' : '[';
    for (uint64_t element = column.offsets[row]; element < column.offsets[row + 1]; ++element)
    {
        if (element != column.offsets[row])
        {
            out += ',';
        }
        appendElement(column.children[0], element, out);
        if (is_map)
        {
            out += ':';
            appendElement(column.children[1], element, out);
        }
    }
    out += is_map ? '}' : ']';
}

}  // namespace

void appendValue(const ColumnView& column, size_t row, std::string& out)
{
    switch (column.type)
    {
        case TypeId::String:
            out += column.stringAt(row);
            return;
        case TypeId::Bool:
            out += column.valueAt<uint8_t>(row) != 0 ? "true" : "false";
            return;
        case TypeId::DateTime64:
            formatDateTime64(column.valueAt<int64_t>(row), column.precision, out);
            return;
        case TypeId::Array:
        case TypeId::Map:
            appendNested(column, row, out);
            return;
        case TypeId::Json:
            appendJsonRowText(column, row, out);
            return;
        case TypeId::Date:
            formatDate(column.valueAt<uint16_t>(row), out);
            return;
        case TypeId::DateTime:
            formatDateTime(column.valueAt<uint32_t>(row), out);
            return;
        default:
            dispatchFixedType(column.type,
                              [&]<typename T>(TypeTag<T>)
                              {
                                  if constexpr (std::is_floating_point_v<T>)
                                  {
                                      appendFloatValue(column.valueAt<T>(row), out);
                                  }
                                  else
                                  {
                                      appendNumber(column.valueAt<T>(row), out);
                                  }
                              });
    }
}

std::string formatValue(const ColumnView& column, size_t row)
{
    std::string text;
    appendValue(column, row, text);
    return text;
}

}  // namespace granary
