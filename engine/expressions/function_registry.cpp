#include "engine/expressions/function_registry.h"

#include <algorithm>

#include "engine/common/ascii.h"
#include "engine/common/describe_count.h"
#include "engine/expressions/type_rules.h"
#include "engine/sql/formatter.h"

namespace granary
{

CallContext::CallContext(const sql::FunctionCall& call, const sql::Expression& expression,
                         ArgumentCompiler& compiler, bool nested_first_argument)
    : call_(call),
      expression_(expression),
      compiler_(compiler),
      nested_first_argument_(nested_first_argument),
      lower_name_(lowerCaseAscii(call.name)),
      compiled_(call.arguments.size())
{
}

const NodePtr& CallContext::argument(size_t i)
{
    if (!compiled_[i])
    {
        compiled_[i] =
            compiler_.compileArgument(*call_.arguments[i], i == 0 && nested_first_argument_);
    }
    return compiled_[i];
}

std::vector<NodePtr> CallContext::arguments()
{
    std::vector<NodePtr> all;
    for (size_t i = 0; i < argumentCount(); ++i)
    {
        all.push_back(argument(i));
    }
    return all;
}

const NodePtr& CallContext::stringArgument(size_t i)
{
    if (!isString(argument(i)->type()))
    {
        failArgumentType(i, "a String");
    }
    return argument(i);
}

const NodePtr& CallContext::numericArgument(size_t i)
{
    if (!isNumeric(argument(i)->type()) || isNested(argument(i)->type()))
    {
        failArgumentType(i, "a number");
    }
    return argument(i);
}

std::string CallContext::constantString(size_t i, std::string_view role)
{
    const Column* value = argument(i)->constantValue();
    if (!value || !isString(value->type()))
    {
        fail(ErrorCode::kBadArguments, "The " + std::string(role) + " of " + name() +
                                           " must be a constant String, not " + quotedArgument(i));
    }
    return std::string(value->stringAt(0));
}

int64_t CallContext::constantInteger(size_t i, std::string_view role)
{
    const Column* value = argument(i)->constantValue();
    if (!value || !isInteger(value->type()) || isDateOrTime(value->type()))
    {
        fail(ErrorCode::kBadArguments, "The " + std::string(role) + " of " + name() +
                                           " must be a constant integer, not " + quotedArgument(i));
    }
    return dispatchFixedType(value->type(), [&]<typename T>(TypeTag<T>)
                             { return static_cast<int64_t>(value->valueAt<T>(0)); });
}

Interval CallContext::interval(size_t i)
{
    const std::optional<Interval> found = compiler_.intervalOf(*call_.arguments[i]);
    if (!found)
    {
        fail(ErrorCode::kBadArguments,
             "Function " + name() + " takes an INTERVAL, not " + quotedArgument(i));
    }
    return *found;
}

std::string CallContext::quotedArgument(size_t i) const
{
    return "`" + sql::formatExpression(*call_.arguments[i]) + "`";
}

std::string CallContext::quotedCall() const
{
    return "`" + sql::formatExpression(expression_) + "`";
}

std::string CallContext::position() const
{
    return "at line " + std::to_string(expression_.position.line) + ", column " +
           std::to_string(expression_.position.column);
}

void CallContext::fail(ErrorCode code, const std::string& message) const
{
    throw Exception(code, message + " " + position());
}

void CallContext::failArgumentType(size_t i, std::string_view wanted)
{
    fail(ErrorCode::kTypeMismatch, "Function " + name() + " needs " + std::string(wanted) +
                                       ", but " + quotedArgument(i) + " is " +
                                       dataTypeName(argument(i)->dataType()));
}

const std::vector<ScalarFunction>& scalarFunctions()
{
    static const std::vector<ScalarFunction> all = []
    {
        std::vector<ScalarFunction> gathered;
        for (std::vector<ScalarFunction> family :
             {stringFunctionEntries(), conversionFunctionEntries(), mathFunctionEntries(),
              dateFunctionEntries(), conditionalFunctionEntries(), collectionFunctionEntries(),
              nullFunctionEntries(), stateFunctionEntries()})
        {
            gathered.insert(gathered.end(), family.begin(), family.end());
        }
        std::sort(gathered.begin(), gathered.end(),
                  [](const ScalarFunction& a, const ScalarFunction& b)
                  { return lowerCaseAscii(a.name) < lowerCaseAscii(b.name); });
        return gathered;
    }();
    return all;
}

const ScalarFunction* findScalarFunction(std::string_view name)
{
    const std::vector<ScalarFunction>& all = scalarFunctions();
    const std::string lower = lowerCaseAscii(name);
    const auto found = std::lower_bound(all.begin(), all.end(), lower,
                                        [](const ScalarFunction& entry, const std::string& key)
                                        { return lowerCaseAscii(entry.name) < key; });
    return found != all.end() && lowerCaseAscii(found->name) == lower ? &*found : nullptr;
}

std::string scalarFunctionReference()
{
    std::string out =
        "# Scalar functions\n\n"
        "Generated by `granary functions --scalar` from the scalar function registry\n"
        "(`engine/expressions/function_registry.h` and the families it gathers); a test fails\n"
        "when this file differs from it. Names match in any case. A call whose arguments read\n"
        "no column is computed once, when the query is compiled. Operators (`+`, `LIKE`, `IN`,\n"
        "`BETWEEN`...), CASE and extract(part FROM t) are syntax: docs/expressions.md. A\n"
        "function is NULL where an argument is NULL (its type Nullable where an argument's\n"
        "is), except isNull, isNotNull, coalesce, ifNull, nullIf, if and multiIf, which say\n"
        "what NULL gives.\n\n"
        "| function | arguments | description |\n|---|---|---|\n";
    for (const ScalarFunction& function : scalarFunctions())
    {
        const std::string arguments =
            describeCount(function.min_arguments, function.max_arguments, "argument");
        out += "| `" + std::string(function.signature) + "` | " + arguments + " | " +
               std::string(function.description) + " |\n";
    }
    return out;
}

}  // namespace granary
