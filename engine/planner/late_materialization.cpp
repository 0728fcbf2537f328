#include "engine/planner/late_materialization.h"

#include <algorithm>
#include <set>
#include <string>

#include "engine/expressions/compiled_expression.h"
#include "engine/planner/table_scan.h"

namespace granary
{
namespace
{

/// Whether LIMIT + OFFSET is within the setting's bound (0: any LIMIT).
bool fewRowsWanted(const AnalyzedSelect& analyzed, const AnalysisOptions& options)
{
    if (!analyzed.limit || analyzed.limit_by)
    {
        return false;
    }
    const uint64_t max_rows = options.late_materialization_max_rows;
    return max_rows == 0 ||
           (*analyzed.limit <= max_rows && analyzed.offset <= max_rows - *analyzed.limit);
}

void addColumnsOf(const sql::ExpressionPtr& expression, const ColumnTypeLookup& lookup,
                  std::set<std::string>& columns)
{
    const CompiledExpression compiled = compileExpression(expression, lookup);
    columns.insert(compiled.columns().begin(), compiled.columns().end());
}

}  // namespace

std::optional<std::vector<ScanOutput>> lateMaterializationKeys(const AnalyzedSelect& analyzed,
                                                               const TableSchema& schema,
                                                               const AnalysisOptions& options)
{
    if (!options.late_materialization || analyzed.aggregates || analyzed.array_join ||
        analyzed.having || analyzed.order_keys.empty() || !fewRowsWanted(analyzed, options))
    {
        return std::nullopt;
    }
    const ColumnTypeLookup lookup = scannedColumnTypes(schema);
    std::vector<ScanOutput> keys;
    std::set<std::string> key_columns;
    if (analyzed.where)
    {
        addColumnsOf(analyzed.where, lookup, key_columns);
    }
    for (const sql::ExpressionPtr& key : analyzed.order_keys)
    {
        const std::string& name = key->as<sql::ColumnRef>()->name;
        const auto output = std::ranges::find(analyzed.scan_outputs, name, &ScanOutput::name);
        if (output == analyzed.scan_outputs.end())
        {
            return std::nullopt;
        }
        if (std::ranges::find(keys, name, &ScanOutput::name) == keys.end())
        {
            keys.push_back(*output);
            addColumnsOf(output->expression, lookup, key_columns);
        }
    }
    std::set<std::string> output_columns;
    for (const ScanOutput& output : analyzed.scan_outputs)
    {
        addColumnsOf(output.expression, lookup, output_columns);
    }
    const bool reads_more = std::ranges::any_of(
        output_columns, [&](const std::string& column) { return !key_columns.contains(column); });
    return reads_more ? std::optional(std::move(keys)) : std::nullopt;
}

}  // namespace granary
