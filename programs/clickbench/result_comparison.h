#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "programs/clickbench/result_table.h"

namespace granary::clickbench
{

/// Relative tolerance for floats (and integers compared with floats).
constexpr double kFloatTolerance = 1e-9;

/// What a query's text says about its result rows: their order, and how close numbers must be.
struct OrderSpec
{
    bool ordered = false;  ///< The query has ORDER BY.
    /// Result columns holding the longest leading run of ORDER BY keys that the query returns:
    /// rows are sorted by these, so runs of rows equal on them are contiguous.
    std::vector<size_t> key_columns;
    bool keys_complete = false;  ///< Every ORDER BY key is a result column.
    bool limited = false;        ///< LIMIT or OFFSET may cut through rows tied on the keys.
    /// Relative tolerance for numbers: kFloatTolerance (integers exactly), or what a
    /// `/* tolerance: X */` comment in the query says, for approximate functions (uniq,
    /// quantile...) whose estimates differ between engines; integers too are then compared
    /// within it.
    double tolerance = kFloatTolerance;
};

/// Reads ORDER BY, LIMIT, OFFSET and a tolerance comment of `sql` (Granary's dialect). Keys are
/// matched to result columns by select position, alias or identical expression, or a bare column
/// name equal to a result column's name (SELECT *). Text that does not parse gives the strictest
/// spec: unordered, not limited.
OrderSpec orderSpecOf(std::string_view sql, const std::vector<std::string>& result_column_names);

bool valuesEqual(const Value& left, const Value& right, double tolerance = kFloatTolerance);

struct Comparison
{
    enum class Outcome
    {
        kEqual,
        /// Equal except where LIMIT/OFFSET cuts through rows tied on the ORDER BY keys (or a
        /// LIMIT without ORDER BY), where each engine may return different rows.
        kTiesAtLimit,
        kDiffers,
    };
    Outcome outcome = Outcome::kEqual;
    std::string detail;  ///< Empty when equal; else what differs, naming the row.
};

std::string_view outcomeName(Comparison::Outcome outcome);

/// Compares `actual` against `expected` under `spec`: rows must match in number and in
/// order of their key values; rows tied on the keys (all rows, for an unordered query) are
/// compared as multisets; numbers within spec.tolerance; column names are ignored (the
/// dialects name expressions differently).
Comparison compareResults(const ResultTable& actual, const ResultTable& expected,
                          const OrderSpec& spec);

}  // namespace granary::clickbench
