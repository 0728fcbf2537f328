#pragma once

#include <string_view>
#include <vector>

#include "engine/sql/expression.h"
#include "engine/sql/statement.h"

namespace granary::sql
{

/// Expressions nest at most this deep (parentheses, unary operators and operator chains all
/// count), as ClickHouse bounds its parser depth: every recursive walk over a parsed tree then
/// stays far from the end of the stack, sanitizers included.
constexpr size_t kMaxExpressionDepth = 256;

/// One statement, optionally followed by ';'. Throws SyntaxError (ErrorCode::kSyntaxError)
/// naming the line, column, the token found and what was expected; empty input is an error.
Statement parseStatement(std::string_view text);

/// Statements separated by ';' (empty statements are skipped, so a script of comments only
/// gives none).
std::vector<Statement> parseScript(std::string_view text);

/// parseStatement for text that must be a SELECT.
SelectStatement parseSelect(std::string_view text);

/// A lone expression (tests, tools).
ExpressionPtr parseExpression(std::string_view text);

}  // namespace granary::sql
