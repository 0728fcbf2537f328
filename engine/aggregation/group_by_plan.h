#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/aggregation/aggregate_layout.h"
#include "engine/aggregation/aggregation_input.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/columns/block.h"

namespace granary
{

/// One aggregate of a GROUP BY: function name, argument column names, result column name,
/// and the parameters of a parametric function (quantile(0.9)(x)). count(*) has no
/// arguments; count(DISTINCT x) is uniqExact(x); fIf(args..., cond) skips the rows where the
/// UInt8 column cond is 0. With a `mask` (a UInt8 column) the aggregate skips the rows where
/// it is 0 too. A group with no row kept gives NULL, or 0 for count-like functions
/// (MaskedAggregateFunction).
struct AggregateDescription
{
    std::string function;
    std::vector<std::string> arguments;
    std::string result_name;
    std::string mask = {};
    std::vector<double> parameters = {};
    /// With a mask: a group whose mask kept no row answers NULL (for functions with no value
    /// over no rows: sum, avg, min...; count and uniq still answer 0), not the function's empty
    /// result. Hosts set it for their NULLs and filters, SQL for Nullable arguments; fIf
    /// combinators answer as ClickHouse does, with the empty result.
    bool null_without_values = false;
    /// Where the call was written ("line 1, column 8"), appended to the errors of its
    /// arguments, parameters and types; empty for calls made in code.
    std::string origin = {};
    /// fMerge: the type of the states its one argument holds (AggregateFunction(f, T...)),
    /// which says f's parameters and argument types.
    std::optional<DataType> merged_state = {};
};

/// The function an AggregateFunction(f(parameters), T...) type's states belong to (what
/// fState over arguments of types T... makes): kUnknownFunction, kBadArguments or
/// kTypeMismatch, as for a call, when there is none.
AggregateFunctionPtr createStateFunction(const DataType& state_type,
                                         const DistinctSettings& distinct = {});

/// A caller that keeps only the first `rows` groups of the result in the order of `order`
/// (ORDER BY ... LIMIT over the aggregation) can say so; groups that cannot be among them are
/// then never finalized. `order` names result columns (keys or aggregate results); an empty
/// order (LIMIT without ORDER BY) keeps the result's first `rows` groups.
class MaskedAggregateFunction;

struct TopGroups
{
    struct OrderColumn
    {
        std::string name;
        bool descending = false;
    };
    std::vector<OrderColumn> order;
    size_t rows = 0;
};

/// What a built result holds for each aggregate.
enum class AggregateOutput
{
    kResults,  ///< Its finalized result.
    kStates,   ///< Its serialized partial state (a String column), not finalized.
    /// Its result, and after every result its state (WITH TOTALS merges those of the groups
    /// HAVING keeps: engine/aggregation/group_totals.h).
    kResultsAndStates,
};

/// A GROUP BY resolved against its input's columns: which columns are keys, the aggregates'
/// state layout, and (set when the result is built) the caller's TopGroups request. Shared,
/// read-only, by every local and the merge.
struct GroupByPlan
{
    std::vector<InputColumn> input_columns;
    std::vector<size_t> key_columns;  ///< Positions among the input's columns.
    std::vector<DataType> key_types;
    std::vector<std::string> key_names;
    std::unique_ptr<AggregateLayout> layout;
    /// The caller's TopGroups: result column positions (keys first, then aggregates) with
    /// their directions, and how many groups it keeps.
    struct Top
    {
        std::vector<std::pair<size_t, bool>> order;
        size_t rows = 0;
    };
    std::optional<Top> top;
    /// Set when the result is built.
    AggregateOutput output = AggregateOutput::kResults;
    /// Groups left out of the result by `top`, summed over the finalize tasks.
    mutable std::atomic<size_t> unfinalized_groups{0};
};

/// Resolves keys and aggregates against `columns`: Exception(kUnknownColumn) for a name that
/// is not among them, the factory's errors for an unknown function or argument type.
/// Without `inline_count` a lone count keeps arena states (AggregateLayout): plans whose
/// locals combine with imported states' need that.
std::unique_ptr<GroupByPlan> makeGroupByPlan(std::vector<InputColumn> columns,
                                             const std::vector<std::string>& keys,
                                             const std::vector<AggregateDescription>& aggregates,
                                             const AggregationSettings& settings,
                                             bool inline_count = true);

/// The plan that merges partial states of `plan`'s aggregates: `columns` are the key columns
/// (named and typed as `plan`'s), then one String column of serialized states per aggregate,
/// named as its result; each aggregate is a MergeStateFunction of `plan`'s, so the two plans'
/// states have one layout and their locals combine into one merge. Without `by_keys` the
/// merge has no keys (`columns` need not hold them): every state folds into one row.
std::unique_ptr<GroupByPlan> makeStateMergePlan(const GroupByPlan& plan,
                                                std::vector<InputColumn> columns,
                                                bool by_keys = true);

/// The result column positions of a TopGroups request; Exception(kUnknownColumn) for a name
/// that is neither a key nor an aggregate result.
GroupByPlan::Top resolveTop(const TopGroups& top, const GroupByPlan& plan);

/// An empty block with the result's schema: the key columns, then the aggregates (String
/// columns of states where the plan emits them), then their states under kResultsAndStates.
Block emptyResult(const GroupByPlan& plan);

/// The name of the state column beside the result `result` under kResultsAndStates.
std::string stateColumnName(std::string_view result);

/// Whether the plan is GROUP BY one key (a String one only where `settings` allows) with
/// count(DISTINCT x) alone over a fixed-width x (of every row, or of the rows a mask keeps):
/// the shape countDistinctByValueBuckets answers without merging sets.
bool isKeyWithDistinctCount(const GroupByPlan& plan, const DistinctSettings& settings);
/// The entry's function as a distinct count over the rows a mask keeps (a NULL argument
/// skipped, -If, FILTER), whose mask is its last argument; null for any other function.
const MaskedAggregateFunction* maskedDistinctCount(const AggregateLayout::Entry& entry);

}  // namespace granary
