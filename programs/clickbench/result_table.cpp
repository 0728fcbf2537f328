#include "programs/clickbench/result_table.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <string_view>

#include "engine/expressions/datetime64.h"

namespace granary::clickbench
{

namespace
{

constexpr int64_t kMicrosecondsPerSecond = 1'000'000;

std::string formatInt128(__int128 value)
{
    if (value == 0)
    {
        return "0";
    }
    const bool negative = value < 0;
    unsigned __int128 magnitude =
        negative ? static_cast<unsigned __int128>(-(value + 1)) + 1 : value;
    std::string digits;
    while (magnitude != 0)
    {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
        magnitude /= 10;
    }
    return negative ? "-" + digits : digits;
}

std::string formatDays(int64_t days)
{
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(date.year()),
                       static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
}

std::string formatMicroseconds(int64_t microseconds)
{
    const int64_t seconds =
        microseconds >= 0
            ? microseconds / kMicrosecondsPerSecond
            : -((-microseconds + kMicrosecondsPerSecond - 1) / kMicrosecondsPerSecond);
    const int64_t fraction = microseconds - seconds * kMicrosecondsPerSecond;
    const int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    const int64_t second_of_day = seconds - days * 86400;
    std::string text = fmt::format("{} {:02}:{:02}:{:02}", formatDays(days), second_of_day / 3600,
                                   second_of_day / 60 % 60, second_of_day % 60);
    if (fraction != 0)
    {
        text += fmt::format(".{:06}", fraction);
    }
    return text;
}

Value valueAt(const ColumnView& column, size_t row)
{
    switch (column.type)
    {
        case TypeId::String:
            return Value::ofString(std::string(column.stringAt(row)));
        case TypeId::Float32:
            return Value::ofFloat(column.valueAt<float>(row));
        case TypeId::Float64:
            return Value::ofFloat(column.valueAt<double>(row));
        case TypeId::Date:
            return Value::ofDate(column.valueAt<uint16_t>(row));
        case TypeId::DateTime:
            return Value::ofTimestamp(int64_t{column.valueAt<uint32_t>(row)} *
                                      kMicrosecondsPerSecond);
        case TypeId::DateTime64:
            return Value::ofTimestamp(
                microsecondsOf(column.valueAt<int64_t>(row), column.precision));
        case TypeId::Array:
        {
            std::vector<Value> elements;
            for (uint64_t i = column.offsets[row]; i < column.offsets[row + 1]; ++i)
            {
                elements.push_back(valueAt(column.children[0], i));
            }
            return Value::ofList(std::move(elements));
        }
        default:
            return dispatchFixedType(column.type, [&]<typename T>(TypeTag<T>)
                                     { return Value::ofInteger(column.valueAt<T>(row)); });
    }
}

}  // namespace

int64_t microsecondsOf(int64_t ticks, uint8_t precision)
{
    if (precision < 6)
    {
        return ticks * ticksPerSecond(static_cast<uint8_t>(6 - precision));
    }
    const int64_t scale = ticksPerSecond(static_cast<uint8_t>(precision - 6));
    return ticks >= 0 ? ticks / scale : -((-ticks + scale - 1) / scale);
}

std::string formatValue(const Value& value)
{
    switch (value.kind)
    {
        case Value::Kind::Null:
            return "NULL";
        case Value::Kind::Integer:
            return formatInt128(value.integer);
        case Value::Kind::Float:
            return fmt::format("{}", value.real);
        case Value::Kind::String:
            return "'" + value.text + "'";
        case Value::Kind::Date:
            return formatDays(static_cast<int64_t>(value.integer));
        case Value::Kind::Timestamp:
            return formatMicroseconds(static_cast<int64_t>(value.integer));
        case Value::Kind::List:
        {
            std::string text = "[";
            for (size_t i = 0; i < value.elements.size(); ++i)
            {
                text += (i == 0 ? "" : ", ") + formatValue(value.elements[i]);
            }
            return text + "]";
        }
    }
    return {};
}

ResultTable resultTableOf(const Block& block)
{
    ResultTable table;
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        table.column_names.push_back(entry.name);
        views.push_back(entry.column.view());
    }
    table.rows.resize(block.rows());
    for (size_t row = 0; row < block.rows(); ++row)
    {
        table.rows[row].reserve(views.size());
        for (const ColumnView& view : views)
        {
            table.rows[row].push_back(valueAt(view, row));
        }
    }
    return table;
}

}  // namespace granary::clickbench
