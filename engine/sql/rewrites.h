#pragma once

#include <functional>
#include <string_view>

#include "engine/sql/statement.h"

namespace granary::sql
{

/// Which columns the sum rewrite may take as x. Empty accepts every column.
struct SumRewriteOptions
{
    /// A planner passes its schema's answer: ClickHouse rewrites any numeric column; for
    /// results identical to the bit, accept integer columns only (a float sum of x + k rounds
    /// differently from sum(x) + k * count(x)). `checked`: the call is sum, which refuses a
    /// result that overflows rather than wrapping (sumWithOverflow wraps).
    std::function<bool(std::string_view column, bool checked)> accepts_column;
};

/// Rewrites, in the select items, HAVING and ORDER BY (ClickHouse PR #57853, the seed's
/// optimisation 2.2), with x a column and k a numeric literal:
///
///     sum(x + k), sum(k + x)  →  sum(x) + k * count(x)
///     sum(x - k)              →  sum(x) - k * count(x)
///     sum(k - x)              →  k * count(x) - sum(x)
///
/// so that ClickBench Q30 (the seed's Q29, counting from 0) computes one sum and one count
/// instead of 90 sums over 90 temporary columns. sum(DISTINCT ...) is left alone. The created
/// sum(x) and count(x) calls are shared nodes, and collectAggregates() keys SUM(x) and sum(x)
/// alike, so every distinct aggregate is computed once; countDistinctAggregates(select, "sum")
/// reports how many sums remain. A rewritten item without an alias gets the original text as
/// its alias, so result column names do not change.
///
/// Both sum and sumWithOverflow are rewritten. The identity is exact in wrap-around integer
/// arithmetic, and the planner must keep it so:
/// the rewritten expression must have the original result type and overflow behaviour. The
/// sum of an integer column is Int64 (UInt64 for unsigned columns) and wraps around on
/// overflow; k * count(x) and the final + / - must be computed in that same type, wrapping the
/// same way, and the result cast back to it — not widened to the type ClickHouse's arithmetic
/// would give UInt64 * Int64. For float columns or a float k the result is only approximately
/// equal (see SumRewriteOptions). count(x) counts the rows, x never being NULL in Granary. sum
/// refuses an overflowing result where sumWithOverflow wraps: a planner accepts for it only
/// columns whose sum(x) cannot overflow where sum(x + k) would not (narrower than 64 bits).
SelectStatement rewriteSumOfColumnAndConstant(const SelectStatement& select,
                                              const SumRewriteOptions& options = {});

}  // namespace granary::sql
