#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

#include "engine/columns/block.h"

namespace granary::distributed::test
{

/// Row `row` of `column` as text, for failure messages.
inline std::string cellText(const Column& column, size_t row)
{
    if (column.isNull(row))
    {
        return "NULL";
    }
    return dispatchType(column.type(),
                        [&]<typename T>(TypeTag<T>) -> std::string
                        {
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                const std::string_view value = column.stringAt(row);
                                std::string text = "'";
                                text += value.substr(0, 40);
                                text += '\'';
                                if (value.size() > 40)
                                {
                                    text += "... (";
                                    text += std::to_string(value.size());
                                    text += " bytes)";
                                }
                                return text;
                            }
                            else
                            {
                                std::ostringstream out;
                                out.precision(17);
                                out << +column.valueAt<T>(row);
                                return out.str();
                            }
                        });
}

/// Whether row `row` holds the same value in both columns (of one type). Floats within
/// `relative_tolerance` of each other count as the same (NaN as NaN, an infinity as itself);
/// with no tolerance every type compares bit for bit, so that a NaN's payload or a -0 that
/// changed shows.
inline bool sameCell(const Column& expected, const Column& actual, size_t row,
                     double relative_tolerance)
{
    if (expected.isNull(row) != actual.isNull(row))
    {
        return false;
    }
    if (isString(expected.type()))
    {
        return expected.stringAt(row) == actual.stringAt(row);
    }
    if (relative_tolerance > 0 && isFloat(expected.type()))
    {
        const double a = expected.type() == TypeId::Float32 ? expected.valueAt<float>(row)
                                                            : expected.valueAt<double>(row);
        const double b = actual.type() == TypeId::Float32 ? actual.valueAt<float>(row)
                                                          : actual.valueAt<double>(row);
        if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b))
        {
            return (std::isnan(a) && std::isnan(b)) || a == b;
        }
        return std::fabs(a - b) <= relative_tolerance * std::max(std::fabs(a), std::fabs(b));
    }
    const size_t width = fixedWidth(expected.type());
    const char* a = static_cast<const char*>(expected.view().data) + row * width;
    const char* b = static_cast<const char*>(actual.view().data) + row * width;
    return std::memcmp(a, b, width) == 0;
}

/// The first way `actual` differs from `expected` (column names, types, row count, NULLs,
/// values), or "" when they are the same.
inline std::string blockDifference(const Block& expected, const Block& actual,
                                   double relative_tolerance = 0)
{
    if (expected.columns.size() != actual.columns.size())
    {
        return std::to_string(actual.columns.size()) + " columns, expected " +
               std::to_string(expected.columns.size());
    }
    for (size_t c = 0; c < expected.columns.size(); ++c)
    {
        const Block::Entry& want = expected.columns[c];
        const Block::Entry& got = actual.columns[c];
        if (want.name != got.name || want.column.type() != got.column.type())
        {
            return "column " + std::to_string(c) + " is " + got.name + " " +
                   std::string(typeName(got.column.type())) + ", expected " + want.name + " " +
                   std::string(typeName(want.column.type()));
        }
        if (want.column.size() != got.column.size())
        {
            return "column " + want.name + " has " + std::to_string(got.column.size()) +
                   " rows, expected " + std::to_string(want.column.size());
        }
        for (size_t row = 0; row < want.column.size(); ++row)
        {
            if (!sameCell(want.column, got.column, row, relative_tolerance))
            {
                return "column " + want.name + " row " + std::to_string(row) + " is " +
                       cellText(got.column, row) + ", expected " + cellText(want.column, row);
            }
        }
    }
    return "";
}

}  // namespace granary::distributed::test
