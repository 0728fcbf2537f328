#include "engine/planner/metadata_aggregation.h"

#include <algorithm>
#include <cstdint>

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

/// The one value of `aggregate` from metadata, if metadata holds it.
std::optional<Column> metadataValue(const AnalyzedSelect& analyzed,
                                    const AggregateDescription& aggregate, const TableScan& scan,
                                    const MetadataAggregation& allowed)
{
    if (!aggregate.mask.empty() || !aggregate.parameters.empty() || aggregate.null_without_values)
    {
        return std::nullopt;
    }
    if (equalsIgnoringCase(aggregate.function, "count") && aggregate.arguments.empty())
    {
        if (!allowed.count_from_part_rows)
        {
            return std::nullopt;
        }
        Column count(TypeId::UInt64);
        count.append<uint64_t>(scan.rowsToRead());
        return count;
    }
    const bool minimum = equalsIgnoringCase(aggregate.function, "min");
    const bool maximum = equalsIgnoringCase(aggregate.function, "max");
    if ((!minimum && !maximum) || aggregate.arguments.size() != 1 ||
        !allowed.min_max_from_sort_key_bounds)
    {
        return std::nullopt;
    }
    const sql::ColumnRef* column = bareColumn(analyzed, aggregate.arguments[0]);
    return column ? scan.sortKeyExtreme(column->name, maximum) : std::nullopt;
}

}  // namespace

std::optional<Block> aggregateFromMetadata(const AnalyzedSelect& analyzed, const TableScan& scan,
                                           const MetadataAggregation& allowed)
{
    // A WHERE that the granule bounds prove true for every row read leaves the parts' rows
    // and bounds exact (`CounterID <> 0` over granules whose CounterID range excludes 0).
    if (!analyzed.aggregates || !analyzed.group_keys.empty() ||
        (analyzed.where && !scan.whereHoldsForEveryRow()) || analyzed.array_join ||
        analyzed.aggregate_functions.empty())
    {
        return std::nullopt;
    }
    Block result;
    for (const AggregateDescription& aggregate : analyzed.aggregate_functions)
    {
        std::optional<Column> value = metadataValue(analyzed, aggregate, scan, allowed);
        if (!value)
        {
            return std::nullopt;
        }
        result.columns.push_back({aggregate.result_name, std::move(*value)});
    }
    return result;
}

}  // namespace granary
