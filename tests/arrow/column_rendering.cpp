#include "tests/arrow/column_rendering.h"

#include <iomanip>
#include <limits>
#include <sstream>

#include "engine/columns/types.h"

namespace granary::arrow::testing
{

template <typename T>
std::string renderValue(T value)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        std::ostringstream text;
        text << std::setprecision(std::numeric_limits<T>::max_digits10) << value;
        return text.str();
    }
    else if constexpr (std::is_convertible_v<T, std::string_view>)
    {
        return std::string(value);
    }
    else
    {
        return std::to_string(value);
    }
}

std::vector<std::string> renderRows(const ColumnView& column)
{
    std::vector<std::string> rows;
    dispatchType(column.type,
                 [&]<typename T>(TypeTag<T>)
                 {
                     for (size_t row = 0; row < column.rows; ++row)
                     {
                         if (!column.isValid(row))
                         {
                             rows.emplace_back(kNullText);
                         }
                         else if constexpr (std::is_same_v<T, std::string_view>)
                         {
                             rows.push_back(renderValue(column.stringAt(row)));
                         }
                         else
                         {
                             rows.push_back(renderValue(column.valueAt<T>(row)));
                         }
                     }
                 });
    return rows;
}

template std::string renderValue(int8_t);
template std::string renderValue(uint8_t);
template std::string renderValue(int16_t);
template std::string renderValue(uint16_t);
template std::string renderValue(int32_t);
template std::string renderValue(uint32_t);
template std::string renderValue(int64_t);
template std::string renderValue(uint64_t);
template std::string renderValue(float);
template std::string renderValue(double);
template std::string renderValue(std::string_view);
template std::string renderValue(std::string);

}  // namespace granary::arrow::testing
