#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/sql/source_position.h"

namespace granary
{
class Column;
}

namespace granary::sql
{

struct SelectStatement;

struct Expression;
/// Expressions are immutable once built and shared between trees: a rewrite builds new nodes
/// over the old subtrees instead of copying them.
using ExpressionPtr = std::shared_ptr<const Expression>;

/// A literal's value, typed as ClickHouse types literals: a non-negative integer is UInt64, a
/// negative one Int64 (only `-` directly before an integer makes one), a number with a
/// fraction or exponent Float64, a string its bytes after unescaping; NULL is NullValue.
struct NullValue
{
    friend bool operator==(NullValue, NullValue) = default;
};
using LiteralValue = std::variant<uint64_t, int64_t, double, std::string, NullValue>;

struct Literal
{
    LiteralValue value;
};

/// A column, or a SELECT alias where GROUP BY / ORDER BY / HAVING refer to one by name.
struct ColumnRef
{
    std::string name;
};

/// `*`: a whole select item (`SELECT *`) or the argument of `count(*)`.
struct Asterisk
{
};

/// name(arguments), name as written; `DISTINCT` before the arguments sets `distinct`.
/// count(*) has one Asterisk argument. DATE_TRUNC('minute', t) is an ordinary call.
struct FunctionCall
{
    std::string name;
    std::vector<ExpressionPtr> arguments;
    bool distinct = false;
    /// A parametric aggregate's first list, f(parameters)(arguments): quantile(0.9)(x).
    bool parametric = false;
    std::vector<ExpressionPtr> parameters = {};
    /// An aggregate's FILTER (WHERE filter); null without one.
    ExpressionPtr filter = nullptr;
};

enum class UnaryOperator
{
    Negate,
    Not,
};

struct UnaryOperation
{
    UnaryOperator op;
    ExpressionPtr operand;
};

enum class BinaryOperator
{
    Or,
    And,
    Equals,
    NotEquals,
    Less,
    LessOrEquals,
    Greater,
    GreaterOrEquals,
    Like,
    NotLike,
    ILike,
    NotILike,
    Plus,
    Minus,
    Multiply,
    Divide,
    Modulo,
};

struct BinaryOperation
{
    BinaryOperator op;
    ExpressionPtr left;
    ExpressionPtr right;
};

/// value [NOT] IN (list...)
struct InList
{
    ExpressionPtr value;
    std::vector<ExpressionPtr> list;
    bool negated = false;
};

struct WhenClause
{
    ExpressionPtr condition;
    ExpressionPtr result;
};

/// CASE [operand] WHEN ... THEN ... [ELSE ...] END. With an operand, each condition is a value
/// compared with it; `operand` and `else_result` are null when absent.
struct CaseExpression
{
    ExpressionPtr operand;
    std::vector<WhenClause> branches;
    ExpressionPtr else_result;
};

enum class DatePart
{
    Year,
    Quarter,
    Month,
    Week,
    Day,
    Hour,
    Minute,
    Second,
};

/// "MINUTE" for DatePart::Minute...
std::string_view datePartName(DatePart part);
/// The part a name stands for, case-insensitively; nullopt for unknown names.
std::optional<DatePart> datePartFromName(std::string_view name);

/// extract(part FROM source): a node of its own, because ClickHouse's two-argument
/// extract(haystack, pattern) is a different (regular expression) function.
struct Extract
{
    DatePart part;
    ExpressionPtr source;
};

/// `(SELECT ...)` as a value: a scalar subquery, or the one item of `x [NOT] IN (SELECT ...)`.
/// Subqueries are uncorrelated: the planner runs each once before compiling the expression
/// around it and fills `result` (the subquery's one column), which the compiler reads. The
/// tree stays a leaf: walks over expressions do not enter the subquery.
struct Subquery
{
    std::shared_ptr<const SelectStatement> query;
    std::shared_ptr<const Column> result = nullptr;
};

struct Expression
{
    using Node = std::variant<Literal, ColumnRef, Asterisk, FunctionCall, UnaryOperation,
                              BinaryOperation, InList, CaseExpression, Extract, Subquery>;

    Node node;
    /// Where the expression's token starts: the operator of an operation, the name of a call.
    SourcePosition position;
    /// Levels of the tree under and including this node (a leaf has 1); the parser bounds it
    /// so that recursive walks over parsed trees cannot exhaust the stack.
    size_t height = 1;

    template <typename T>
    const T* as() const
    {
        return std::get_if<T>(&node);
    }
};

/// Builds a node, computing its height from its children.
ExpressionPtr makeExpression(Expression::Node node, SourcePosition position = {});

/// True for integer and float literals (not strings, not NULL).
bool isNumericLiteral(const Expression& expression);
/// True for the literal NULL.
bool isNullLiteral(const Expression& expression);

/// The node's direct subexpressions, in source order (absent CASE parts are skipped).
std::vector<ExpressionPtr> children(const Expression& expression);

/// The same node over other children, given in the order children() lists them.
ExpressionPtr withChildren(const Expression& expression,
                           const std::vector<ExpressionPtr>& replaced);

/// Rebuilds `root` bottom-up: children first, then `rewrite` on the node (rebuilt over the new
/// children where any changed). `rewrite` returns its argument to keep a node. Untouched
/// subtrees are shared, not copied.
ExpressionPtr transformBottomUp(const ExpressionPtr& root,
                                const std::function<ExpressionPtr(const ExpressionPtr&)>& rewrite);

/// Structural equality: same nodes, names, operators and literal values (literal types
/// included: 1 and 1.0 differ). Positions are ignored.
bool operator==(const Expression& left, const Expression& right);
/// The same for possibly-null pointers: two nulls are equal.
bool sameExpression(const ExpressionPtr& left, const ExpressionPtr& right);
bool sameExpressions(const std::vector<ExpressionPtr>& left,
                     const std::vector<ExpressionPtr>& right);

}  // namespace granary::sql
