#include "bench/embedding/result_rows.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace granary::bench
{
namespace
{

/// Sums and averages come from different summation orders in the two engines.
constexpr double kRelativeTolerance = 1e-9;

double asDouble(const Cell& cell)
{
    return std::holds_alternative<double>(cell) ? std::get<double>(cell)
                                                : static_cast<double>(std::get<int64_t>(cell));
}

bool sameCell(const Cell& left, const Cell& right)
{
    const bool left_float = std::holds_alternative<double>(left);
    const bool right_float = std::holds_alternative<double>(right);
    if (!left_float && !right_float)
    {
        return left == right;
    }
    if (std::holds_alternative<std::string>(left) || std::holds_alternative<std::string>(right))
    {
        return false;
    }
    const double a = asDouble(left);
    const double b = asDouble(right);
    return std::abs(a - b) <= kRelativeTolerance * std::max(std::abs(a), std::abs(b));
}

std::string render(const Row& row)
{
    std::string text;
    for (const Cell& cell : row)
    {
        text += text.empty() ? "(" : ", ";
        std::visit(
            [&](const auto& value)
            {
                if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>)
                {
                    text += "'" + value + "'";
                }
                else
                {
                    text += std::to_string(value);
                }
            },
            cell);
    }
    return text + ")";
}

bool sameRow(const Row& left, const Row& right)
{
    return std::equal(left.begin(), left.end(), right.begin(), right.end(), sameCell);
}

}  // namespace

Cell cellAt(const ColumnView& column, size_t row)
{
    switch (column.type)
    {
        case TypeId::UInt8:
            return int64_t{column.valueAt<uint8_t>(row)};
        case TypeId::UInt16:
            return int64_t{column.valueAt<uint16_t>(row)};
        case TypeId::UInt32:
            return int64_t{column.valueAt<uint32_t>(row)};
        case TypeId::UInt64:
            return static_cast<int64_t>(column.valueAt<uint64_t>(row));
        case TypeId::Int8:
            return int64_t{column.valueAt<int8_t>(row)};
        case TypeId::Int16:
            return int64_t{column.valueAt<int16_t>(row)};
        case TypeId::Int32:
            return int64_t{column.valueAt<int32_t>(row)};
        case TypeId::Int64:
            return column.valueAt<int64_t>(row);
        case TypeId::Float32:
            return double{column.valueAt<float>(row)};
        case TypeId::Float64:
            return column.valueAt<double>(row);
        case TypeId::String:
            return std::string(column.stringAt(row));
        default:
            throw std::runtime_error("a result column of an unexpected type");
    }
}

void checkSameRows(std::vector<Row> granary_rows, std::vector<Row> duckdb_rows,
                   const std::string& what)
{
    if (granary_rows.size() != duckdb_rows.size())
    {
        throw std::runtime_error(what + ": Granary gave " + std::to_string(granary_rows.size()) +
                                 " rows, DuckDB " + std::to_string(duckdb_rows.size()));
    }
    // Keys lead every row, so sorting lines the same groups up; aggregates never reorder them.
    std::sort(granary_rows.begin(), granary_rows.end());
    std::sort(duckdb_rows.begin(), duckdb_rows.end());
    const auto [granary_row, duckdb_row] =
        std::mismatch(granary_rows.begin(), granary_rows.end(), duckdb_rows.begin(), sameRow);
    if (granary_row != granary_rows.end())
    {
        throw std::runtime_error(what + ": Granary has row " + render(*granary_row) +
                                 " where DuckDB has " + render(*duckdb_row));
    }
}

}  // namespace granary::bench
