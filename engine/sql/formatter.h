#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/sql/expression.h"
#include "engine/sql/statement.h"

namespace granary::sql
{

/// Canonical SQL text of an AST, on one line: keywords in upper case, function names and
/// identifiers as written (quoted with backquotes only where needed), literals in a form the
/// lexer reads back exactly (shortest round-trip floats, escaped strings), parentheses only
/// where precedence needs them, types by their Granary names. Parsing the text gives back an
/// equal AST, so it serves as a round-trip oracle, for EXPLAIN and as a cache key.
std::string formatExpression(const Expression& expression);
std::string formatStatement(const Statement& statement);
/// Statements joined by ";\n".
std::string formatScript(const std::vector<Statement>& statements);

/// A name as SQL text: bare when it is a plain identifier and no reserved keyword, else
/// `backquoted`.
std::string formatIdentifier(std::string_view name);
/// 'text', with quotes, backslashes and control bytes escaped.
std::string formatStringLiteral(std::string_view text);
std::string formatLiteral(const LiteralValue& value);

/// "+", "<>", "AND", "NOT LIKE"...
std::string_view binaryOperatorText(BinaryOperator op);

}  // namespace granary::sql
