#include "programs/clickbench/result_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/common/exception.h"
#include "engine/sql/parser.h"
#include "engine/sql/select_references.h"

namespace granary::clickbench
{

namespace
{

constexpr long double kMicrosecondsPerDay = 86'400'000'000.0L;

bool isNumber(const Value& value)
{
    return value.kind == Value::Kind::Integer || value.kind == Value::Kind::Float;
}

bool isTime(const Value& value)
{
    return value.kind == Value::Kind::Date || value.kind == Value::Kind::Timestamp;
}

long double numberOf(const Value& value)
{
    return value.kind == Value::Kind::Integer ? static_cast<long double>(value.integer)
                                              : static_cast<long double>(value.real);
}

long double microsecondsOf(const Value& value)
{
    return value.kind == Value::Kind::Date
               ? static_cast<long double>(value.integer) * kMicrosecondsPerDay
               : static_cast<long double>(value.integer);
}

/// Rank of a value's kind in the canonical order: numbers together, times together.
int kindRank(const Value& value)
{
    if (value.kind == Value::Kind::Null)
    {
        return 0;
    }
    if (isNumber(value))
    {
        return 1;
    }
    if (value.kind == Value::Kind::List)
    {
        return 4;
    }
    return value.kind == Value::Kind::String ? 2 : 3;
}

/// A total order in which tolerantly equal values are (nearly always) adjacent, to pair up
/// the rows of two results that hold the same multiset.
int compareCanonical(const Value& left, const Value& right)
{
    const int rank_difference = kindRank(left) - kindRank(right);
    if (rank_difference != 0)
    {
        return rank_difference;
    }
    const auto order = [](const auto& a, const auto& b) { return a < b ? -1 : (b < a ? 1 : 0); };
    switch (kindRank(left))
    {
        case 1:
            if (left.kind == Value::Kind::Integer && right.kind == Value::Kind::Integer)
            {
                return order(left.integer, right.integer);
            }
            return order(numberOf(left), numberOf(right));
        case 2:
            return order(left.text, right.text);
        case 3:
            return order(microsecondsOf(left), microsecondsOf(right));
        case 4:
            for (size_t i = 0; i < std::min(left.elements.size(), right.elements.size()); ++i)
            {
                if (const int element = compareCanonical(left.elements[i], right.elements[i]);
                    element != 0)
                {
                    return element;
                }
            }
            return order(left.elements.size(), right.elements.size());
        default:
            return 0;
    }
}

bool rowsEqual(const std::vector<Value>& left, const std::vector<Value>& right,
               const std::vector<size_t>& columns, double tolerance)
{
    return std::all_of(columns.begin(), columns.end(),
                       [&](size_t column)
                       { return valuesEqual(left[column], right[column], tolerance); });
}

/// The X of a `tolerance: X` in a comment of `sql`, or kFloatTolerance.
double toleranceOf(std::string_view sql)
{
    constexpr std::string_view kMarker = "tolerance:";
    const size_t marker = sql.find(kMarker);
    if (marker == std::string_view::npos)
    {
        return kFloatTolerance;
    }
    const std::string rest(sql.substr(marker + kMarker.size()));
    char* end = nullptr;
    const double tolerance = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || !(tolerance >= 0))
    {
        throw Exception(ErrorCode::kBadArguments,
                        "a query's 'tolerance:' comment needs a number: " + std::string(sql));
    }
    return tolerance;
}

std::string formatRow(const std::vector<Value>& row, const std::vector<size_t>& columns)
{
    std::string text = "(";
    for (size_t i = 0; i < columns.size(); ++i)
    {
        text += (i == 0 ? "" : ", ") + formatValue(row[columns[i]]);
    }
    return text + ")";
}

std::vector<size_t> sortedRows(const ResultTable& table, size_t begin, size_t end)
{
    std::vector<size_t> rows(end - begin);
    std::iota(rows.begin(), rows.end(), begin);
    std::sort(rows.begin(), rows.end(),
              [&](size_t left, size_t right)
              {
                  const auto& a = table.rows[left];
                  const auto& b = table.rows[right];
                  for (size_t column = 0; column < a.size(); ++column)
                  {
                      if (const int order = compareCanonical(a[column], b[column]); order != 0)
                      {
                          return order < 0;
                      }
                  }
                  return false;
              });
    return rows;
}

std::optional<size_t> resultColumnOf(const sql::SelectStatement& select, const sql::Expression& key,
                                     const std::vector<std::string>& result_column_names)
{
    const bool has_asterisk = std::any_of(select.items.begin(), select.items.end(),
                                          [](const sql::SelectItem& item)
                                          { return item.expression->as<sql::Asterisk>(); });
    if (!has_asterisk && select.items.size() == result_column_names.size())
    {
        const sql::SelectItem* item = nullptr;
        try
        {
            item = sql::referencedSelectItem(select, key);
        }
        catch (const Exception&)
        {
            return std::nullopt;
        }
        for (size_t index = 0; index < select.items.size() && item == nullptr; ++index)
        {
            if (*select.items[index].expression == key)
            {
                item = &select.items[index];
            }
        }
        if (item != nullptr)
        {
            return static_cast<size_t>(item - select.items.data());
        }
    }
    if (const auto* column = key.as<sql::ColumnRef>())
    {
        const auto found =
            std::find(result_column_names.begin(), result_column_names.end(), column->name);
        if (found != result_column_names.end())
        {
            return static_cast<size_t>(found - result_column_names.begin());
        }
    }
    return std::nullopt;
}

}  // namespace

OrderSpec orderSpecOf(std::string_view sql, const std::vector<std::string>& result_column_names)
{
    OrderSpec spec;
    spec.tolerance = toleranceOf(sql);
    sql::SelectStatement select;
    try
    {
        select = sql::parseSelect(sql);
    }
    catch (const Exception&)
    {
        return spec;
    }
    spec.ordered = !select.order_by.empty();
    spec.limited = select.limit.has_value() || select.offset != 0;
    spec.keys_complete = true;
    for (const sql::OrderByItem& item : select.order_by)
    {
        const auto column = resultColumnOf(select, *item.expression, result_column_names);
        if (!column)
        {
            spec.keys_complete = false;
            break;
        }
        spec.key_columns.push_back(*column);
    }
    return spec;
}

bool valuesEqual(const Value& left, const Value& right, double tolerance)
{
    if (isNumber(left) && isNumber(right))
    {
        if (left.kind == Value::Kind::Integer && right.kind == Value::Kind::Integer &&
            tolerance <= kFloatTolerance)
        {
            return left.integer == right.integer;
        }
        const long double a = numberOf(left);
        const long double b = numberOf(right);
        if (a == b || (std::isnan(a) && std::isnan(b)))
        {
            return true;
        }
        return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
    }
    if (isTime(left) && isTime(right))
    {
        return microsecondsOf(left) == microsecondsOf(right);
    }
    if (left.kind != right.kind)
    {
        return false;
    }
    if (left.kind == Value::Kind::List)
    {
        return left.elements.size() == right.elements.size() &&
               std::equal(left.elements.begin(), left.elements.end(), right.elements.begin(),
                          [&](const Value& a, const Value& b)
                          { return valuesEqual(a, b, tolerance); });
    }
    return left.kind == Value::Kind::Null || left.text == right.text;
}

std::string_view outcomeName(Comparison::Outcome outcome)
{
    switch (outcome)
    {
        case Comparison::Outcome::kEqual:
            return "equal";
        case Comparison::Outcome::kTiesAtLimit:
            return "ties at limit";
        case Comparison::Outcome::kDiffers:
            return "DIFFERS";
    }
    return {};
}

Comparison compareResults(const ResultTable& actual, const ResultTable& expected,
                          const OrderSpec& spec)
{
    const size_t columns = expected.column_names.size();
    if (actual.column_names.size() != columns)
    {
        return {Comparison::Outcome::kDiffers,
                fmt::format("{} columns, expected {}", actual.column_names.size(), columns)};
    }
    const size_t rows = expected.rows.size();
    if (actual.rows.size() != rows)
    {
        return {Comparison::Outcome::kDiffers,
                fmt::format("{} rows, expected {}", actual.rows.size(), rows)};
    }
    const std::vector<size_t>& keys = spec.ordered ? spec.key_columns : std::vector<size_t>{};
    for (size_t row = 0; row < rows; ++row)
    {
        if (!rowsEqual(actual.rows[row], expected.rows[row], keys, spec.tolerance))
        {
            return {Comparison::Outcome::kDiffers,
                    fmt::format("row {}: ORDER BY keys {}, expected {}", row + 1,
                                formatRow(actual.rows[row], keys),
                                formatRow(expected.rows[row], keys))};
        }
    }

    std::vector<size_t> all_columns(columns);
    std::iota(all_columns.begin(), all_columns.end(), 0);
    Comparison comparison;
    size_t run_begin = 0;
    while (run_begin < rows)
    {
        size_t run_end = run_begin + 1;
        while (run_end < rows &&
               rowsEqual(expected.rows[run_end], expected.rows[run_begin], keys, spec.tolerance))
        {
            ++run_end;
        }
        const std::vector<size_t> actual_order = sortedRows(actual, run_begin, run_end);
        const std::vector<size_t> expected_order = sortedRows(expected, run_begin, run_end);
        for (size_t i = 0; i < actual_order.size(); ++i)
        {
            const auto& actual_row = actual.rows[actual_order[i]];
            const auto& expected_row = expected.rows[expected_order[i]];
            if (rowsEqual(actual_row, expected_row, all_columns, spec.tolerance))
            {
                continue;
            }
            const std::string_view tie = !spec.ordered ? "no ORDER BY"
                                         : spec.keys_complete
                                             ? "tied on the ORDER BY keys"
                                             : "tied on the ORDER BY keys returned";
            const std::string mismatch = fmt::format(
                "rows {}..{} ({}): {} where expected has {}", run_begin + 1, run_end, tie,
                formatRow(actual_row, all_columns), formatRow(expected_row, all_columns));
            const bool at_cut = run_begin == 0 || run_end == rows;
            if (!(spec.limited && at_cut))
            {
                return {Comparison::Outcome::kDiffers, mismatch};
            }
            comparison = {Comparison::Outcome::kTiesAtLimit,
                          "LIMIT/OFFSET cuts through tied rows: " + mismatch};
            break;
        }
        run_begin = run_end;
    }
    return comparison;
}

}  // namespace granary::clickbench
