#include "engine/planner/grouping_sets.h"

#include <algorithm>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/planner/select_analysis.h"
#include "engine/planner/table_scan.h"
#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/select_references.h"

namespace granary
{
namespace
{

using sql::ExpressionPtr;
using KeySet = std::vector<ExpressionPtr>;

/// A GROUP BY key as the expression it names (a position or an alias of the select list).
ExpressionPtr resolvedKey(const sql::SelectStatement& select, const ExpressionPtr& key)
{
    const sql::SelectItem* item = sql::referencedSelectItem(select, *key);
    return item ? item->expression : key;
}

bool contains(const KeySet& keys, const sql::Expression& key)
{
    return std::any_of(keys.begin(), keys.end(),
                       [&](const ExpressionPtr& candidate) { return *candidate == key; });
}

/// The sets the query groups by, keys resolved, and every key of them once.
std::vector<KeySet> groupingSetsOf(const sql::SelectStatement& select, KeySet& all_keys)
{
    const auto resolve = [&](const KeySet& keys)
    {
        KeySet resolved;
        for (const ExpressionPtr& key : keys)
        {
            resolved.push_back(resolvedKey(select, key));
            if (!contains(all_keys, *resolved.back()))
            {
                all_keys.push_back(resolved.back());
            }
        }
        return resolved;
    };
    std::vector<KeySet> sets;
    if (select.grouping == sql::Grouping::kGroupingSets)
    {
        for (const KeySet& set : select.grouping_sets)
        {
            sets.push_back(resolve(set));
        }
        return sets;
    }
    const KeySet keys = resolve(select.group_by);
    if (select.grouping == sql::Grouping::kRollup)
    {
        for (size_t size = keys.size() + 1; size-- > 0;)
        {
            sets.emplace_back(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(size));
        }
        return sets;
    }
    if (keys.size() > kMaxCubeKeys)
    {
        throw Exception(ErrorCode::kNotImplemented,
                        "CUBE of " + std::to_string(keys.size()) + " keys at " +
                            sql::describePosition(select.group_by.front()->position) +
                            ": at most " + std::to_string(kMaxCubeKeys));
    }
    // Every subset, larger ones first (all keys, then each one left out...).
    for (size_t mask = (size_t{1} << keys.size()); mask-- > 0;)
    {
        KeySet set;
        for (size_t k = 0; k < keys.size(); ++k)
        {
            if (mask & (size_t{1} << (keys.size() - 1 - k)))
            {
                set.push_back(keys[k]);
            }
        }
        sets.push_back(std::move(set));
    }
    std::stable_sort(sets.begin(), sets.end(),
                     [](const KeySet& a, const KeySet& b) { return a.size() > b.size(); });
    return sets;
}

/// `CAST(0, 'T')` ('' for a String, NULL for a Nullable key, as ClickHouse's default of the
/// type): the value a key takes in a set that leaves it out.
ExpressionPtr defaultOf(const ExpressionPtr& key, const TableSchema& schema)
{
    const DataType type = compileExpression(key, scannedColumnTypes(schema)).dataType();
    const sql::LiteralValue zero = type.nullable       ? sql::LiteralValue(sql::NullValue{})
                                   : isString(type.id) ? sql::LiteralValue(std::string())
                                                       : sql::LiteralValue(uint64_t{0});
    sql::FunctionCall cast{"CAST",
                           {sql::makeExpression(sql::Literal{zero}, key->position),
                            sql::makeExpression(sql::Literal{dataTypeName(type)}, key->position)},
                           false};
    return sql::makeExpression(std::move(cast), key->position);
}

/// `expression` for one set: keys it leaves out replaced by their defaults, grouping(...) by
/// its bitmask; aggregate arguments kept (sum(k) still sums the rows' k).
ExpressionPtr forSet(const ExpressionPtr& expression, const sql::SelectStatement& select,
                     const KeySet& set, const KeySet& left_out, const KeySet& defaults)
{
    if (sql::isAggregateCall(*expression))
    {
        return expression;
    }
    for (size_t k = 0; k < left_out.size(); ++k)
    {
        if (*left_out[k] == *expression)
        {
            return defaults[k];
        }
    }
    const auto* call = expression->as<sql::FunctionCall>();
    if (call && lowerCaseAscii(call->name) == "grouping")
    {
        uint64_t mask = 0;
        for (const ExpressionPtr& argument : call->arguments)
        {
            mask = (mask << 1) | (contains(set, *resolvedKey(select, argument)) ? 0 : 1);
        }
        return sql::makeExpression(sql::Literal{mask}, expression->position);
    }
    std::vector<ExpressionPtr> kids = sql::children(*expression);
    bool changed = false;
    for (ExpressionPtr& kid : kids)
    {
        ExpressionPtr replaced = forSet(kid, select, set, left_out, defaults);
        changed |= replaced != kid;
        kid = std::move(replaced);
    }
    return changed ? sql::withChildren(*expression, kids) : expression;
}

/// The union's column an ORDER BY or LIMIT BY key names: a select item by position, alias or
/// expression.
ExpressionPtr unionColumn(const sql::SelectStatement& select, const ExpressionPtr& key)
{
    const sql::SelectItem* item = sql::referencedSelectItem(select, *key);
    for (size_t i = 0; item == nullptr && i < select.items.size(); ++i)
    {
        item = *select.items[i].expression == *key ? &select.items[i] : nullptr;
    }
    if (item == nullptr)
    {
        throw Exception(ErrorCode::kNotImplemented,
                        "ORDER BY or LIMIT BY key `" + sql::formatExpression(*key) + "` at " +
                            sql::describePosition(key->position) +
                            " must be a select item under ROLLUP, CUBE or GROUPING SETS");
    }
    return sql::makeExpression(sql::ColumnRef{outputNameOf(*item)}, key->position);
}

sql::SelectStatement finishOf(const sql::SelectStatement& select)
{
    sql::SelectStatement finish;
    finish.position = select.position;
    finish.items.push_back({sql::makeExpression(sql::Asterisk{}, select.position), std::nullopt});
    for (const sql::OrderByItem& item : select.order_by)
    {
        finish.order_by.push_back(
            {unionColumn(select, item.expression), item.descending, item.nulls_first});
    }
    if (select.limit_by)
    {
        finish.limit_by = select.limit_by;
        for (ExpressionPtr& key : finish.limit_by->keys)
        {
            key = unionColumn(select, key);
        }
    }
    finish.limit = select.limit;
    finish.offset = select.offset;
    return finish;
}

/// The plain GROUP BY of one set: the keys it leaves out at their defaults.
sql::SelectStatement querySet(const sql::SelectStatement& select, const KeySet& set,
                              const KeySet& all_keys, const TableSchema& schema)
{
    KeySet left_out;
    KeySet defaults;
    for (const ExpressionPtr& key : all_keys)
    {
        if (!contains(set, *key))
        {
            left_out.push_back(key);
            defaults.push_back(defaultOf(key, schema));
        }
    }
    sql::SelectStatement query = select;
    query.grouping = sql::Grouping::kKeys;
    query.grouping_sets.clear();
    query.group_by = set;
    query.order_by.clear();
    query.limit_by.reset();
    query.limit.reset();
    query.offset = 0;
    query.with_totals = false;
    for (sql::SelectItem& item : query.items)
    {
        item.alias = outputNameOf(item);  // The union's columns keep the query's names.
        item.expression = forSet(item.expression, select, set, left_out, defaults);
    }
    if (query.having)
    {
        query.having = forSet(query.having, select, set, left_out, defaults);
    }
    if (set.empty() && sql::collectAggregates(query).empty())
    {
        // Grouping by nothing without aggregates is still one group, not every row.
        query.group_by.push_back(sql::makeExpression(sql::Literal{std::string()}));
    }
    return query;
}

}  // namespace

GroupingSetsPlan planGroupingSets(const sql::SelectStatement& select, const TableSchema& schema)
{
    KeySet all_keys;
    const std::vector<KeySet> sets = groupingSetsOf(select, all_keys);
    GroupingSetsPlan plan;
    plan.finish = finishOf(select);
    bool totals_placed = !select.with_totals;
    for (const KeySet& set : sets)
    {
        plan.per_set.push_back(querySet(select, set, all_keys, schema));
        // WITH TOTALS: the totals of the groups of every key (ClickHouse's totals come before
        // the rollup), from the first set that has them all.
        if (!totals_placed && set.size() == all_keys.size())
        {
            plan.per_set.back().with_totals = true;
            totals_placed = true;
        }
    }
    if (!totals_placed)
    {
        plan.totals_only = querySet(select, all_keys, all_keys, schema);
        plan.totals_only->with_totals = true;
    }
    return plan;
}

}  // namespace granary
