#include "engine/planner/bounds_aggregation.h"

#include <algorithm>

#include "engine/common/ascii.h"

namespace granary
{
namespace
{

/// The table column an aggregate argument (a scan output name) reads as it is, if any.
const sql::ColumnRef* bareColumn(const AnalyzedSelect& analyzed, const std::string& argument)
{
    const auto output =
        std::find_if(analyzed.scan_outputs.begin(), analyzed.scan_outputs.end(),
                     [&](const ScanOutput& scan_output) { return scan_output.name == argument; });
    return output == analyzed.scan_outputs.end() ? nullptr
                                                 : output->expression->as<sql::ColumnRef>();
}

}  // namespace

std::optional<Block> aggregateFromSortKeyBounds(const AnalyzedSelect& analyzed,
                                                const TableScan& scan)
{
    if (!analyzed.aggregates || !analyzed.group_keys.empty() || analyzed.where ||
        analyzed.array_join || analyzed.aggregate_functions.empty())
    {
        return std::nullopt;
    }
    Block result;
    for (const AggregateDescription& aggregate : analyzed.aggregate_functions)
    {
        const bool minimum = equalsIgnoringCase(aggregate.function, "min");
        const bool maximum = equalsIgnoringCase(aggregate.function, "max");
        if ((!minimum && !maximum) || aggregate.arguments.size() != 1 || !aggregate.mask.empty() ||
            !aggregate.parameters.empty() || aggregate.null_without_values)
        {
            return std::nullopt;
        }
        const sql::ColumnRef* column = bareColumn(analyzed, aggregate.arguments[0]);
        std::optional<Column> extreme =
            column ? scan.sortKeyExtreme(column->name, maximum) : std::nullopt;
        if (!extreme)
        {
            return std::nullopt;
        }
        result.columns.push_back({aggregate.result_name, std::move(*extreme)});
    }
    return result;
}

}  // namespace granary
