#include "engine/planner/null_aggregation.h"

#include <algorithm>
#include <unordered_map>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/planner/array_join.h"
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

/// sum, avg, min...: NULL over no value (count, uniq, states: their empty answer).
bool answersNullWithoutValues(const std::string& function)
{
    const ResolvedAggregateName resolved = resolveAggregateName(function);
    return resolved.entry != nullptr && resolved.entry->empty_is_null && !resolved.state_combinator;
}

class Lowering
{
public:
    Lowering(AnalyzedSelect& analyzed, const TableSchema& schema,
             const std::vector<std::string>& columns_with_nulls)
        : analyzed_(analyzed), lookup_(lookupOf(analyzed, schema)), with_nulls_(columns_with_nulls)
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
            const Nulls nulls = nullsOf(key);
            if (nulls.nullable && !nulls.present)
            {
                lowering_.nullable_keys.push_back(key);
            }
            else if (nulls.nullable)
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
        if (!lowering_.nullable_results.empty() && analyzed_.group_keys.empty())
        {
            lowering_.rows_counted = kHiddenPrefix + std::string("rows");
            analyzed_.aggregate_functions.push_back({"count", {}, lowering_.rows_counted});
        }
        return lowering_;
    }

private:
    /// The scan's columns, and an ARRAY JOIN's element by its alias (never Nullable: Arrays
    /// of Nullable are refused).
    static ColumnTypeLookup lookupOf(const AnalyzedSelect& analyzed, const TableSchema& schema)
    {
        ColumnTypeLookup columns = scannedColumnTypes(schema);
        if (!analyzed.array_join)
        {
            return columns;
        }
        return ArrayJoinStep(*analyzed.array_join, columns).withElement(columns);
    }

    /// An output's type is Nullable, and it may hold a NULL here: it reads a column with a
    /// NULL in the snapshot, or is a constant (a NULL literal).
    struct Nulls
    {
        bool nullable = false;
        bool present = false;
    };
    Nulls nullsOf(const std::string& output) const
    {
        const auto found = outputs_.find(output);
        if (found == outputs_.end())
        {
            return {};
        }
        const CompiledExpression compiled = compileExpression(found->second, lookup_);
        const bool present =
            compiled.isConstant() ||
            std::any_of(compiled.columns().begin(), compiled.columns().end(),
                        [&](const std::string& column) {
                            return std::find(with_nulls_.begin(), with_nulls_.end(), column) !=
                                   with_nulls_.end();
                        });
        return {compiled.dataType().nullable, compiled.dataType().nullable && present};
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
        bool nullable_argument = false;
        for (const std::string& argument : aggregate.arguments)
        {
            const Nulls nulls = nullsOf(argument);
            nullable_argument = nullable_argument || nulls.nullable;
            if (!nulls.present)
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
            if (nullable_argument && answersNullWithoutValues(aggregate.function))
            {
                lowering_.nullable_results.push_back(aggregate.result_name);
            }
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
    const std::vector<std::string>& with_nulls_;
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

NullAggregation lowerNullAggregation(AnalyzedSelect& analyzed, const TableSchema& schema,
                                     const std::vector<std::string>& columns_with_nulls)
{
    if (!analyzed.aggregates)
    {
        return {};
    }
    return Lowering(analyzed, schema, columns_with_nulls).run();
}

std::vector<std::string> columnsWithNulls(const TableSnapshot& snapshot, const TableSchema& schema)
{
    std::vector<std::string> columns;
    for (size_t c = 0; c < schema.columns.size(); ++c)
    {
        if (schema.columns[c].type.nullable &&
            std::any_of(snapshot.parts.begin(), snapshot.parts.end(),
                        [&](const auto& part) { return part->hasNulls(c); }))
        {
            columns.push_back(schema.columns[c].name);
        }
    }
    return columns;
}

void restoreNullResults(const NullAggregation& lowering, Block& stage, bool no_rows)
{
    const Column* rows =
        lowering.rows_counted.empty() ? nullptr : &columnNamed(stage, lowering.rows_counted);
    no_rows = no_rows || (rows != nullptr && rows->size() == 1 && rows->valueAt<uint64_t>(0) == 0);
    for (const std::string& result : lowering.nullable_results)
    {
        Column& values = columnNamed(stage, result);
        values.setNullable();
        if (no_rows && values.size() == 1)
        {
            values.setNull(0);
        }
    }
    if (rows != nullptr)
    {
        std::erase_if(stage.columns, [&](const Block::Entry& entry)
                      { return entry.name == lowering.rows_counted; });
    }
}

void restoreNulls(const NullAggregation& lowering, Block& stage)
{
    for (const std::string& key : lowering.nullable_keys)
    {
        columnNamed(stage, key).setNullable();
    }
    std::vector<std::string> flags;
    for (const NullAggregation::Key& key : lowering.keys)
    {
        Column& values = columnNamed(stage, key.key);
        values.setNullable();
        values.setNullWhere(columnNamed(stage, key.flag));
        flags.push_back(key.flag);
    }
    std::erase_if(stage.columns, [&](const Block::Entry& entry)
                  { return std::find(flags.begin(), flags.end(), entry.name) != flags.end(); });
    restoreNullResults(lowering, stage, false);
}

}  // namespace granary
