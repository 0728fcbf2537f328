#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/types.h"
#include "engine/sql/statement.h"
#include "tests/planner/oracle_value.h"

namespace granary::oracle
{

/// A table as the naive evaluator holds it: rows of values, one per column.
struct RowTable
{
    std::vector<std::string> names;
    std::vector<TypeId> types;
    std::vector<Row> rows;

    size_t columnIndex(std::string_view name) const;  ///< Throws std::out_of_range.
};

/// One result row with the values of its ORDER BY keys.
struct KeyedRow
{
    Row sort_key;
    Row values;
};

/// A SELECT's answer before OFFSET and LIMIT: every row, stably sorted by the ORDER BY keys
/// (in evaluation order where there are none), so that a checker can see which rows tie.
struct NaiveResult
{
    std::vector<std::string> names;
    std::vector<KeyedRow> rows;
    std::vector<bool> descending;  ///< Per ORDER BY key; empty when the query has none.
    uint64_t offset = 0;
    std::optional<uint64_t> limit;
};

/// Interprets `select` row by row over `table`: WHERE per row, groups in a std::map holding
/// their rows, each aggregate recomputed from those rows, HAVING per group, std::stable_sort
/// for ORDER BY. It shares nothing with the engine but the AST. Throws std::logic_error for
/// SQL it does not understand.
NaiveResult evaluateNaively(const sql::SelectStatement& select, const RowTable& table);

/// LIKE with `%`, `_` and backslash escapes, by plain backtracking over bytes.
bool likeMatches(std::string_view text, std::string_view pattern, bool case_insensitive);

}  // namespace granary::oracle
