#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aggregation/aggregate_function.h"
#include "engine/aggregation/functions/uniq_exact.h"
#include "engine/columns/types.h"

namespace granary
{

/// One argument of an aggregate: the column's name (for error messages) and type.
struct AggregateArgument
{
    std::string name;
    TypeId type;
};

/// An aggregate call as written, `name(parameters)(arguments)`: quantile(0.9)(x) has the
/// parameter 0.9 and the argument x; sum(x) has no parameters.
struct AggregateCall
{
    std::string name;
    std::vector<AggregateArgument> arguments;
    std::vector<double> parameters = {};
    DistinctSettings distinct = {};
};

/// One function of the library and what its reference entry says of it (docs/functions.md is
/// generated from these entries).
struct AggregateFunctionEntry
{
    std::string name;
    std::vector<std::string> aliases = {};
    /// How it is called: "quantile(level)(x)".
    std::string signature = {};
    std::string result = {};
    /// "exact", or the approximation and its error bound.
    std::string exactness = {};
    std::string state = {};
    /// The cost of merging two states.
    std::string merge = {};
    size_t min_arguments = 1;
    size_t max_arguments = 1;
    size_t min_parameters = 0;
    size_t max_parameters = 0;
    /// Whether a group where no row was kept for NULL arguments (or a host's filter) gives
    /// NULL; count-like functions give their empty value (0) instead.
    bool empty_is_null = true;
    /// What such a group gives instead of NULL, for the reference (when !empty_is_null).
    std::string empty_value = "0";
    /// Whether repeating a value changes nothing (min, max, any, uniq...): fDistinct is then f
    /// itself, without a set of the distinct values.
    bool ignores_duplicates = false;
    /// Makes the function for a call whose argument and parameter counts are in range; throws
    /// Exception(kTypeMismatch) naming the column for a type it does not take and
    /// Exception(kBadArguments) for a parameter out of its range.
    std::function<AggregateFunctionPtr(const AggregateCall&)> create = {};
};

/// Every function of the library, in the reference's order.
const std::vector<AggregateFunctionEntry>& aggregateFunctions();

/// The entry named `name` or one of its aliases (any case), or null.
const AggregateFunctionEntry* findAggregateFunction(std::string_view name);

/// `name` resolved with its combinators: fIf(args..., cond) is f over the rows where cond (the
/// last argument, UInt8) is non-zero; fDistinct(x) is f over the distinct values of x; both
/// combine as fDistinctIf(x, cond). Outermost, fState gives each group's state (a String in
/// the partial-state format) instead of its result, and fMerge(s) folds such states: uniqState,
/// sumIfState, quantilesMerge.
struct ResolvedAggregateName
{
    const AggregateFunctionEntry* entry = nullptr;
    bool if_combinator = false;
    bool distinct_combinator = false;
    bool state_combinator = false;
    bool merge_combinator = false;
    /// fArray(arrays...): f over the arrays' elements (functions/array_combinator.h).
    bool array_combinator = false;
    /// The name as written, without its combinators (a view into the name resolved).
    std::string_view base_name = {};
    /// The name without State or Merge: the function whose states are made or merged (uniqIf).
    std::string_view stateful_name = {};
};
/// Null entry for a name that is neither a function nor a function with a combinator.
ResolvedAggregateName resolveAggregateName(std::string_view name);

/// Creates the function of `call` (without combinators). Unknown functions throw
/// kUnknownFunction; wrong argument or parameter counts kBadArguments; argument types the
/// function does not take kTypeMismatch naming the column.
AggregateFunctionPtr createAggregateFunction(const AggregateCall& call);
AggregateFunctionPtr createAggregateFunction(std::string_view function,
                                             const std::vector<AggregateArgument>& arguments,
                                             const DistinctSettings& distinct_settings = {});

/// True for names resolveAggregateName knows (case-insensitive).
bool isAggregateFunctionName(std::string_view function);
/// True for the names of count(DISTINCT x) (uniqExact, count_distinct; any case).
bool isDistinctCountName(std::string_view function);

/// Exception(kBadArguments): `call` takes `what`, and got something else.
[[noreturn]] void throwBadAggregateCall(const AggregateCall& call, const std::string& what);
/// Exception(kTypeMismatch) naming `argument` of `call` and what the function expected.
[[noreturn]] void throwAggregateTypeMismatch(const AggregateCall& call,
                                             const AggregateArgument& argument,
                                             std::string_view expected);

}  // namespace granary
