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
constexpr std::array<std::string_view, 29> kReservedKeywords = {
    "AND",      "AS",     "ASC",   "BY",    "CASE",   "DESC",  "DISTINCT", "ELSE",
    "END",      "FORMAT", "FROM",  "GROUP", "HAVING", "ILIKE", "IN",       "INTO",
    "JOIN",     "LIKE",   "LIMIT", "NOT",   "OFFSET", "OR",    "ORDER",    "SELECT",
    "SETTINGS", "THEN",   "UNION", "WHEN",  "WHERE",
};

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool equalsIgnoringCase(std::string_view left, std::string_view right)
{
    return std::equal(left.begin(), left.end(), right.begin(), right.end(),
                      [](char a, char b) { return lower(a) == lower(b); });
}

std::string lowerCaseAscii(std::string_view text)
{
    std::string lowered(text);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), lower);
    return lowered;
}

bool isReservedKeyword(std::string_view word)
{
    return std::any_of(kReservedKeywords.begin(), kReservedKeywords.end(),
                       [&](std::string_view keyword) { return equalsIgnoringCase(word, keyword); });
}

}  // namespace granary::sql
