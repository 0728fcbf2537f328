#pragma once

#include <string>
#include <vector>

#include "engine/aggregation/aggregation_input.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/columns/block.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// One aggregate of a GROUP BY: function name, argument column names, result column name.
/// count(*) has no arguments; count(DISTINCT x) is uniqExact(x).
struct AggregateDescription
{
    std::string function;
    std::vector<std::string> arguments;
    std::string result_name;
};

/// A caller that keeps only the first `rows` groups of the result in the order of `order`
/// (ORDER BY ... LIMIT over the aggregation) can say so; groups that cannot be among them are
/// then never finalized. `order` names result columns (keys or aggregate results); an empty
/// order (LIMIT without ORDER BY) keeps the result's first `rows` groups.
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

/// GROUP BY keys with aggregates over a block of columns, on the query's threads: workers
/// aggregate morsels into partial tables of their own, the partials are merged in parallel
/// (converted to two-level and merged bucket by bucket where that pays) and finalized per
/// bucket in parallel. The result has the key columns, then one column per aggregate.
class Aggregator
{
public:
    Aggregator(std::vector<std::string> keys, std::vector<AggregateDescription> aggregates,
               AggregationSettings settings = {});

    /// Throws Exception (unknown column, type mismatch, cancelled) or MemoryLimitExceeded;
    /// either way every state and table is freed. Statistics go to context.stats().
    /// With `top`, the result may leave out groups that are not among the first top->rows in
    /// its order (each bucket keeps its own first top->rows, in their original order), so that
    /// sorting the result and keeping top->rows rows gives what sorting every group would,
    /// ties included (the order's ties fall back to result position in both).
    Block execute(const BlockView& input, QueryContext& context,
                  const TopGroups* top = nullptr) const;
    /// The same over morsels produced on the query's threads (a scan with filters).
    Block execute(const AggregationInput& input, QueryContext& context,
                  const TopGroups* top = nullptr) const;

    const AggregationSettings& settings() const { return settings_; }

private:
    std::vector<std::string> keys_;
    std::vector<AggregateDescription> aggregates_;
    AggregationSettings settings_;
};

}  // namespace granary
