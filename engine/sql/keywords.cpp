#include "engine/sql/keywords.h"

#include <algorithm>
#include <array>

namespace granary::sql
{
namespace
{

/// The clauses and operators that may follow an expression, and FORMAT, SETTINGS, UNION,
/// INTO and JOIN, which ClickHouse allows there: as reserved words they are never read as an
/// alias, so `SELECT a FORMAT JSON` is an error rather than a column named FORMAT.
constexpr std::array<std::string_view, 30> kReservedKeywords = {
    "AND",    "AS",       "ASC",    "BETWEEN", "BY",    "CASE",   "DESC",  "DISTINCT",
    "ELSE",   "END",      "FORMAT", "FROM",    "GROUP", "HAVING", "ILIKE", "IN",
    "INTO",   "JOIN",     "LIKE",   "LIMIT",   "NOT",   "OFFSET", "OR",    "ORDER",
    "SELECT", "SETTINGS", "THEN",   "UNION",   "WHEN",  "WHERE",
};

}  // namespace

bool isReservedKeyword(std::string_view word)
{
    return std::any_of(kReservedKeywords.begin(), kReservedKeywords.end(),
                       [&](std::string_view keyword) { return equalsIgnoringCase(word, keyword); });
}

}  // namespace granary::sql
