#include "engine/planner/null_aggregation.h"

#include <algorithm>
#include <unordered_map>

#include "engine/expressions/compiled_expression.h"
#include "engine/planner/table_scan.h"

namespace granary
{
namespace
{

/// Hidden columns start with a control character, which no SQL name holds, so they never
/// shadow a column or a select item.
constexpr char kHiddenPrefix = '\x01';

sql::ExpressionPtr call(std::string name, std::vector<sql::ExpressionPtr> arguments)
{
    return sql::makeExpression(sql::FunctionCall{std::move(name), std::move(arguments), false});
}

class Lowering
{
public:
    Lowering(AnalyzedSelect& analyzed, const TableSchema& schema)
        : analyzed_(analyzed), lookup_(scannedColumnTypes(schema))
    {
        for (const ScanOutput& output : analyzed_.scan_outputs)
        {
            outputs_[output.name] = output.expression;
        }
    }

    NullAggregation run()
    {
        const std::vector<std::string> keys = analyzed_.group_keys;
        for (const std::string& key : keys)
        {
            if (nullable(key))
            {
                const std::string flag = kHiddenPrefix + key + " is NULL";
                addOutput(flag, call("isNull", {outputs_.at(key)}));
                analyzed_.group_keys.push_back(flag);
                lowering_.keys.push_back({key, flag});
            }
        }
        for (AggregateDescription& aggregate : analyzed_.aggregate_functions)
        {
            lowerAggregate(aggregate);
        }
        return lowering_;
    }

private:
    bool nullable(const std::string& output) const
    {
        const auto found = outputs_.find(output);
        return found != outputs_.end() &&
               compileExpression(found->second, lookup_).dataType().nullable;
    }

    void addOutput(const std::string& name, sql::ExpressionPtr expression)
    {
        analyzed_.scan_outputs.push_back({name, expression});
        outputs_[name] = std::move(expression);
    }

    /// Masks `aggregate`'s rows to those with every argument known; a group without such a
    /// row answers NULL (sum, avg, min...) or the empty result (count, uniq...).
    void lowerAggregate(AggregateDescription& aggregate)
    {
        sql::ExpressionPtr mask;
        for (const std::string& argument : aggregate.arguments)
        {
            if (!nullable(argument))
            {
                continue;
            }
            sql::ExpressionPtr known = call("isNotNull", {outputs_.at(argument)});
            mask = mask ? sql::makeExpression(
                              sql::BinaryOperation{sql::BinaryOperator::And, mask, known})
                        : known;
        }
        if (!mask)
        {
            return;
        }
        if (!aggregate.mask.empty())  // FILTER (WHERE c): the rows must pass both
        {
            mask = sql::makeExpression(
                sql::BinaryOperation{sql::BinaryOperator::And, mask, outputs_.at(aggregate.mask)});
        }
        aggregate.mask = kHiddenPrefix + std::string("mask of ") + aggregate.result_name;
        aggregate.null_without_values = true;
        addOutput(aggregate.mask, mask);
        lowering_.masked_aggregates = true;
    }

    AnalyzedSelect& analyzed_;
    ColumnTypeLookup lookup_;
    std::unordered_map<std::string, sql::ExpressionPtr> outputs_;
    NullAggregation lowering_;
};

Column& columnNamed(Block& stage, const std::string& name)
{
    for (Block::Entry& entry : stage.columns)
    {
        if (entry.name == name)
        {
            return entry.column;
        }
    }
    throw Exception(ErrorCode::kLogicalError, "aggregation result lacks '" + name + "'");
}

}  // namespace

NullAggregation lowerNullAggregation(AnalyzedSelect& analyzed, const TableSchema& schema)
{
    // Elements of an ARRAY JOIN are never Nullable, and the lookup does not know their names.
    if (!analyzed.aggregates || analyzed.array_join)
    {
        return {};
    }
    return Lowering(analyzed, schema).run();
}

void restoreNulls(const NullAggregation& lowering, Block& stage)
{
    std::vector<std::string> flags;
    for (const NullAggregation::Key& key : lowering.keys)
    {
        Column& values = columnNamed(stage, key.key);
        const Column& flag = columnNamed(stage, key.flag);
        values.setNullable();
        for (size_t row = 0; row < flag.size(); ++row)
        {
            if (flag.valueAt<uint8_t>(row) != 0)
            {
                values.setNull(row);
            }
        }
        flags.push_back(key.flag);
    }
    std::erase_if(stage.columns, [&](const Block::Entry& entry)
                  { return std::find(flags.begin(), flags.end(), entry.name) != flags.end(); });
}

}  // namespace granary
