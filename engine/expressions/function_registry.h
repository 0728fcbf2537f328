#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/exception.h"
#include "engine/expressions/expression_node.h"
#include "engine/expressions/intervals.h"
#include "engine/sql/expression.h"

namespace granary
{

/// What a scalar function's builder asks of the expression compiler.
class ArgumentCompiler
{
public:
    virtual ~ArgumentCompiler() = default;
    /// Compiles `argument`; `nested_allowed` lets an Array, Map or JSON value through.
    virtual NodePtr compileArgument(const sql::Expression& argument, bool nested_allowed) = 0;
    /// `INTERVAL n UNIT` as a constant interval; nullopt for another expression.
    virtual std::optional<Interval> intervalOf(const sql::Expression& argument) = 0;
};

/// A scalar function call being compiled: its arguments, compiled on first use, and the checks
/// that builders share, whose errors name the function, the argument and its position.
class CallContext
{
public:
    CallContext(const sql::FunctionCall& call, const sql::Expression& expression,
                ArgumentCompiler& compiler, bool nested_first_argument);

    /// As written (for messages).
    const std::string& name() const { return call_.name; }
    /// In lower case (for builders that serve several names).
    const std::string& lowerName() const { return lower_name_; }
    size_t argumentCount() const { return call_.arguments.size(); }
    const sql::Expression& argumentExpression(size_t i) const { return *call_.arguments[i]; }

    /// Argument i compiled (once).
    const NodePtr& argument(size_t i);
    /// Every argument compiled, in order.
    std::vector<NodePtr> arguments();
    /// Argument i, which must be a String (kTypeMismatch otherwise).
    const NodePtr& stringArgument(size_t i);
    /// Argument i, which must be a number, Date or DateTime (kTypeMismatch otherwise).
    const NodePtr& numericArgument(size_t i);
    /// Argument i as a constant String (kBadArguments otherwise); `role` names it ("pattern").
    std::string constantString(size_t i, std::string_view role);
    /// Argument i as a constant integer (kBadArguments otherwise).
    int64_t constantInteger(size_t i, std::string_view role);
    /// Argument i as `INTERVAL n UNIT` (kBadArguments otherwise).
    Interval interval(size_t i);

    /// "`expression`" of argument i, or of the whole call.
    std::string quotedArgument(size_t i) const;
    std::string quotedCall() const;
    /// "at line L, column C".
    std::string position() const;
    /// Throws `code` with `message` and the call's position appended.
    [[noreturn]] void fail(ErrorCode code, const std::string& message) const;
    /// kTypeMismatch: "Function f needs `wanted`, but `x` is T at ...".
    [[noreturn]] void failArgumentType(size_t i, std::string_view wanted);

private:
    const sql::FunctionCall& call_;
    const sql::Expression& expression_;
    ArgumentCompiler& compiler_;
    bool nested_first_argument_;
    std::string lower_name_;
    std::vector<NodePtr> compiled_;
};

/// Marks a function that takes any number of arguments from its minimum.
inline constexpr size_t kAnyArgumentCount = SIZE_MAX;

/// One scalar function of the registry: what the reference (docs/functions.md) says of it and
/// how a call is built. The compiler checks the argument count before `build`, and folds a
/// result that reads no column into a constant.
struct ScalarFunction
{
    std::string_view name;         ///< As ClickHouse spells it; calls match case-insensitively.
    std::string_view signature;    ///< "substring(s, offset[, length])".
    std::string_view description;  ///< One or two sentences: types, semantics, edge cases.
    size_t min_arguments = 0;
    size_t max_arguments = 0;            ///< kAnyArgumentCount: no bound.
    bool nested_first_argument = false;  ///< Its first argument may be an Array, Map or JSON.
    NodePtr (*build)(CallContext& call) = nullptr;
    /// It decides what a NULL argument gives (isNull, coalesce, if); any other function of a
    /// bare NULL is NULL.
    bool takes_nulls = false;
};

/// The registered function of that name (any case), or null.
const ScalarFunction* findScalarFunction(std::string_view name);
/// Every function, by name.
const std::vector<ScalarFunction>& scalarFunctions();
/// The scalar part of the function reference (Markdown), from the registry.
std::string scalarFunctionReference();

/// The families' entries, gathered by the registry (each lives beside its kernels).
std::vector<ScalarFunction> stringFunctionEntries();
std::vector<ScalarFunction> conversionFunctionEntries();
std::vector<ScalarFunction> mathFunctionEntries();
std::vector<ScalarFunction> dateFunctionEntries();
std::vector<ScalarFunction> conditionalFunctionEntries();
std::vector<ScalarFunction> collectionFunctionEntries();
std::vector<ScalarFunction> nullFunctionEntries();
std::vector<ScalarFunction> stateFunctionEntries();

}  // namespace granary
