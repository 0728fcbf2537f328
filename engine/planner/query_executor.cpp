#include "engine/planner/query_executor.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <span>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "engine/expressions/expression_node.h"
#include "engine/expressions/type_rules.h"
#include "engine/planner/grouping_sets.h"
#include "engine/planner/rows_per_key.h"
#include "engine/sql/aggregate_calls.h"

namespace granary
{
namespace
{

using sql::ExpressionPtr;

/// The common table expressions a SELECT sees, by name.
using CteScope = std::map<std::string, sql::SelectStatementPtr, std::less<>>;

bool containsSubquery(const sql::Expression& expression)
{
    if (expression.as<sql::Subquery>())
    {
        return true;
    }
    const std::vector<ExpressionPtr> kids = sql::children(expression);
    return std::any_of(kids.begin(), kids.end(),
                       [](const ExpressionPtr& kid) { return containsSubquery(*kid); });
}

bool isAggregating(const sql::SelectStatement& select)
{
    return !select.group_by.empty() || select.grouping != sql::Grouping::kKeys ||
           !sql::collectAggregates(select).empty();
}

bool selectsAsterisk(const sql::SelectStatement& select)
{
    return std::any_of(select.items.begin(), select.items.end(),
                       [](const sql::SelectItem& item)
                       { return item.expression->as<sql::Asterisk>() != nullptr; });
}

/// DISTINCT without aggregation as what it means: GROUP BY every item, by position.
void distinctAsGroupBy(sql::SelectStatement& select)
{
    select.distinct = false;
    for (size_t i = 0; i < select.items.size(); ++i)
    {
        select.group_by.push_back(sql::makeExpression(sql::Literal{uint64_t{i + 1}},
                                                      select.items[i].expression->position));
    }
}

/// The first occurrence of each distinct row of `block`, in order, then OFFSET and LIMIT.
Block distinctRows(const Block& block, uint64_t offset, std::optional<uint64_t> limit)
{
    std::vector<ColumnView> columns;
    for (const Block::Entry& column : block.columns)
    {
        columns.push_back(column.column.view());
    }
    std::vector<uint32_t> all(block.rows());
    std::iota(all.begin(), all.end(), 0);
    std::vector<uint32_t> kept = rowsWithinKeyLimit(columns, all, 0, 1);
    kept.erase(kept.begin(), kept.begin() + std::min<size_t>(offset, kept.size()));
    kept.resize(std::min<uint64_t>(kept.size(), limit.value_or(UINT64_MAX)));
    Block distinct;
    gatherBlockRows(block, kept, distinct);
    return distinct;
}

/// The UNION ALL of `blocks`: the first one's names, each column in the common type of the
/// branches' columns (numbers widen; other types must agree).
Block unionAll(std::vector<Block> blocks, const sql::SourcePosition& position)
{
    Block& first = blocks.front();
    for (size_t b = 1; b < blocks.size(); ++b)
    {
        if (blocks[b].columns.size() != first.columns.size())
        {
            throw Exception(ErrorCode::kUnionAllResultStructuresMismatch,
                            "UNION ALL at " + sql::describePosition(position) + ": branch " +
                                std::to_string(b + 1) + " has " +
                                std::to_string(blocks[b].columns.size()) + " columns, the first " +
                                std::to_string(first.columns.size()));
        }
    }
    for (size_t c = 0; c < first.columns.size(); ++c)
    {
        std::vector<TypeId> types;
        bool same = true;
        for (const Block& block : blocks)
        {
            types.push_back(block.columns[c].column.type());
            same = same && block.columns[c].column.dataType() == first.columns[c].column.dataType();
        }
        if (same)
        {
            continue;
        }
        const std::optional<TypeId> common = commonType(types);
        if (!common || isNested(*common))
        {
            throw Exception(ErrorCode::kUnionAllResultStructuresMismatch,
                            "UNION ALL at " + sql::describePosition(position) + ": column " +
                                std::to_string(c + 1) + " (" + first.columns[c].name +
                                ") has types " + dataTypeName(first.columns[c].column.dataType()) +
                                " and others with no common type");
        }
        for (Block& block : blocks)
        {
            Column& column = block.columns[c].column;
            Column storage;
            const ColumnView converted = convertFixed(column.view(), *common, storage);
            Column widened(*common);
            widened.appendRange(converted, 0, converted.rows);
            column = std::move(widened);
        }
    }
    for (size_t b = 1; b < blocks.size(); ++b)
    {
        for (size_t c = 0; c < first.columns.size(); ++c)
        {
            first.columns[c].column.appendRange(blocks[b].columns[c].column.view(), 0,
                                                blocks[b].rows());
        }
    }
    return std::move(first);
}

/// `select` with `source.column` read as `column`, where `source` is the FROM alias or the
/// table's name and no column is named `source.column` itself.
sql::SelectStatement withUnqualifiedColumns(sql::SelectStatement select, const TableSchema& schema)
{
    std::vector<std::string> prefixes;
    for (const std::optional<std::string>& source : {select.from_alias, select.from})
    {
        if (source)
        {
            prefixes.push_back(*source + ".");
        }
    }
    const auto unqualify = [&](const ExpressionPtr& node) -> ExpressionPtr
    {
        const auto* column = node->as<sql::ColumnRef>();
        if (!column || schema.indexOf(column->name))
        {
            return node;
        }
        for (const std::string& prefix : prefixes)
        {
            if (column->name.size() > prefix.size() && column->name.starts_with(prefix))
            {
                return sql::makeExpression(sql::ColumnRef{column->name.substr(prefix.size())},
                                           node->position);
            }
        }
        return node;
    };
    sql::rewriteExpressions(select, [&](const ExpressionPtr& expression)
                            { return sql::transformBottomUp(expression, unqualify); });
    return select;
}

class QueryRunner
{
public:
    QueryRunner(QueryContext& context, const QueryEnvironment& environment)
        : context_(context), environment_(environment)
    {
    }

    /// The statement with its WITH clause and UNION ALL branches; its WITH TOTALS row goes
    /// to `totals` (a subquery's, which has nowhere to go, is not computed: ClickHouse drops
    /// it too).
    Block run(const sql::SelectStatement& select, CteScope scope,
              std::optional<Block>* totals = nullptr)
    {
        for (const sql::CommonTableExpression& cte : select.with)
        {
            scope[cte.name] = cte.query;
        }
        if (select.union_all.empty())
        {
            return runSelect(select, scope, totals);
        }
        rejectTotalsInUnion(select);
        std::vector<Block> blocks;
        blocks.push_back(runSelect(select, scope, nullptr));
        for (const sql::SelectStatementPtr& branch : select.union_all)
        {
            blocks.push_back(run(*branch, scope));
        }
        return unionAll(std::move(blocks), select.union_all.front()->position);
    }

    SelectOutcome outcome(Block block, std::optional<Block> totals) const
    {
        SelectOutcome result = reads_;
        result.block = std::move(block);
        result.totals = std::move(totals);
        return result;
    }

private:
    /// Which of a UNION ALL's totals would be the result's is not settled: refused.
    static void rejectTotalsInUnion(const sql::SelectStatement& select)
    {
        const sql::SelectStatement* with_totals = select.with_totals ? &select : nullptr;
        for (size_t b = 0; !with_totals && b < select.union_all.size(); ++b)
        {
            with_totals = select.union_all[b]->with_totals ? select.union_all[b].get() : nullptr;
        }
        if (with_totals)
        {
            throw Exception(ErrorCode::kNotImplemented,
                            "WITH TOTALS in a UNION ALL branch at " +
                                sql::describePosition(with_totals->position) +
                                ": run it as a query of its own");
        }
    }

    /// One SELECT (no WITH or UNION ALL of its own to run).
    Block runSelect(const sql::SelectStatement& original, const CteScope& scope,
                    std::optional<Block>* totals)
    {
        sql::SelectStatement select = original;
        select.with.clear();
        select.union_all.clear();
        select.with_totals = select.with_totals && totals != nullptr;
        sql::rewriteExpressions(select, [&](const ExpressionPtr& expression)
                                { return withSubqueryResults(expression, scope); });
        const bool distinct_over_rows =
            select.distinct &&
            (isAggregating(select) || selectsAsterisk(select) || !select.hasSource());
        if (select.distinct && !distinct_over_rows)
        {
            distinctAsGroupBy(select);
        }
        const uint64_t offset = select.offset;
        const std::optional<uint64_t> limit = select.limit;
        if (distinct_over_rows)
        {
            if (select.limit_by)
            {
                throw Exception(ErrorCode::kNotImplemented,
                                "SELECT DISTINCT with LIMIT BY over aggregates or * at " +
                                    sql::describePosition(select.position));
            }
            select.offset = 0;
            select.limit.reset();
        }
        Block block = select.hasSource() ? runOverSource(select, scope, totals)
                                         : executeSelectWithoutTable(select);
        return distinct_over_rows ? distinctRows(block, offset, limit) : block;
    }

    Block runOverSource(const sql::SelectStatement& select, const CteScope& scope,
                        std::optional<Block>* totals)
    {
        std::shared_ptr<const Table> table;
        bool temporary = true;
        if (select.from_subquery)
        {
            table = temporaryTable(run(*select.from_subquery, scope),
                                   select.from_alias.value_or("subquery"),
                                   select.from_subquery->position);
        }
        else if (const auto cte = scope.find(*select.from); cte != scope.end())
        {
            // Inside its own query the name is the table's again.
            CteScope inner = scope;
            inner.erase(*select.from);
            table = temporaryTable(run(*cte->second, inner), cte->first, cte->second->position);
        }
        else
        {
            table = environment_.tables(*select.from);
            temporary = false;
        }
        // A cached condition is keyed by its text, which a subquery's rows do not change.
        const bool cacheable = !temporary && !(select.where && containsSubquery(*select.where));
        const sql::SelectStatement unqualified = withUnqualifiedColumns(select, table->schema());
        if (unqualified.grouping == sql::Grouping::kKeys)
        {
            return executeOn(unqualified, *table, cacheable, totals);
        }
        const GroupingSetsPlan plan = planGroupingSets(unqualified, table->schema());
        std::vector<Block> blocks;
        for (const sql::SelectStatement& set : plan.per_set)
        {
            blocks.push_back(executeOn(set, *table, cacheable, set.with_totals ? totals : nullptr));
        }
        if (plan.totals_only)
        {
            executeOn(*plan.totals_only, *table, cacheable, totals);
        }
        const std::shared_ptr<const Table> sets = temporaryTable(
            unionAll(std::move(blocks), select.position), "grouping sets", select.position);
        return executeOn(plan.finish, *sets, false, nullptr);
    }

    /// executeSelect, its reads counted in the query's; its totals row (WITH TOTALS) to
    /// `totals`.
    Block executeOn(const sql::SelectStatement& select, const Table& table, bool cacheable,
                    std::optional<Block>* totals)
    {
        SelectOutcome outcome =
            executeSelect(select, table, context_, environment_.settings, environment_.observer,
                          ScanCaches{cacheable ? environment_.caches.condition : nullptr,
                                     environment_.caches.decoded});
        reads_.rows_read += outcome.rows_read;
        reads_.bytes_read += outcome.bytes_read;
        reads_.granules_skipped += outcome.granules_skipped;
        if (totals != nullptr && outcome.totals)
        {
            *totals = std::move(outcome.totals);
        }
        return std::move(outcome.block);
    }

    /// `expression` with every subquery in it run and its result attached.
    ExpressionPtr withSubqueryResults(const ExpressionPtr& expression, const CteScope& scope)
    {
        return sql::transformBottomUp(
            expression,
            [&](const ExpressionPtr& node) -> ExpressionPtr
            {
                const auto* subquery = node->as<sql::Subquery>();
                if (!subquery || subquery->result)
                {
                    return node;
                }
                Block rows = run(*subquery->query, scope);
                if (rows.columns.size() != 1)
                {
                    throw Exception(ErrorCode::kBadArguments,
                                    "The subquery at " + sql::describePosition(node->position) +
                                        " returns " + std::to_string(rows.columns.size()) +
                                        " columns; as a value or an IN set it must return one");
                }
                auto result = std::make_shared<Column>(std::move(rows.columns[0].column));
                return sql::makeExpression(sql::Subquery{subquery->query, std::move(result)},
                                           node->position);
            });
    }

    /// The rows of a subquery or CTE as an in-memory table named `name`.
    std::shared_ptr<const Table> temporaryTable(Block rows, const std::string& name,
                                                const sql::SourcePosition& position)
    {
        TableSchema schema;
        std::set<std::string, std::less<>> names;
        for (const Block::Entry& column : rows.columns)
        {
            if (!names.insert(column.name).second)
            {
                throw Exception(ErrorCode::kBadArguments,
                                "The subquery at " + sql::describePosition(position) +
                                    " returns two columns named '" + column.name +
                                    "': give them distinct aliases");
            }
            schema.columns.push_back({column.name, column.column.dataType(), {}});
        }
        auto table = std::make_shared<Table>(name, std::move(schema));
        if (rows.rows() > 0)
        {
            std::vector<Block> blocks;
            blocks.push_back(std::move(rows));
            table->insert(std::move(blocks), context_.threads());
        }
        return table;
    }

    QueryContext& context_;
    const QueryEnvironment& environment_;
    SelectOutcome reads_;  ///< Rows, bytes and granules of every table read.
};

}  // namespace

SelectOutcome executeQuery(const sql::SelectStatement& select, QueryContext& context,
                           const QueryEnvironment& environment)
{
    // IN sets are built on this thread while the SELECTs are planned: charge them to the query.
    MemoryTrackerScope memory(&context.memory());
    QueryRunner runner(context, environment);
    std::optional<Block> totals;
    Block block = runner.run(select, {}, &totals);
    return runner.outcome(std::move(block), std::move(totals));
}

}  // namespace granary
