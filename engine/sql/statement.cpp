#include "engine/sql/statement.h"

#include <algorithm>

namespace granary::sql
{

namespace
{

bool sameSelect(const SelectStatementPtr& left, const SelectStatementPtr& right)
{
    return left == right || (left && right && *left == *right);
}

bool sameArrayJoin(const std::optional<ArrayJoinClause>& left,
                   const std::optional<ArrayJoinClause>& right)
{
    return left.has_value() == right.has_value() &&
           (!left || (sameExpression(left->array, right->array) && left->alias == right->alias &&
                      left->left == right->left));
}

bool sameLimitBy(const std::optional<LimitBy>& left, const std::optional<LimitBy>& right)
{
    return left.has_value() == right.has_value() &&
           (!left || (left->limit == right->limit && left->offset == right->offset &&
                      sameExpressions(left->keys, right->keys)));
}

}  // namespace

void rewriteExpressions(SelectStatement& select,
                        const std::function<ExpressionPtr(const ExpressionPtr&)>& rewrite)
{
    const auto apply = [&](ExpressionPtr& expression)
    {
        if (expression)
        {
            expression = rewrite(expression);
        }
    };
    for (SelectItem& item : select.items)
    {
        apply(item.expression);
    }
    apply(select.where);
    for (ExpressionPtr& key : select.group_by)
    {
        apply(key);
    }
    for (std::vector<ExpressionPtr>& set : select.grouping_sets)
    {
        for (ExpressionPtr& key : set)
        {
            apply(key);
        }
    }
    apply(select.having);
    for (OrderByItem& item : select.order_by)
    {
        apply(item.expression);
    }
    if (select.limit_by)
    {
        for (ExpressionPtr& key : select.limit_by->keys)
        {
            apply(key);
        }
    }
}

bool operator==(const SelectStatement& left, const SelectStatement& right)
{
    const auto same_item = [](const SelectItem& a, const SelectItem& b)
    { return sameExpression(a.expression, b.expression) && a.alias == b.alias; };
    const auto same_order = [](const OrderByItem& a, const OrderByItem& b)
    {
        return sameExpression(a.expression, b.expression) && a.descending == b.descending &&
               a.nulls_first == b.nulls_first;
    };
    const auto same_cte = [](const CommonTableExpression& a, const CommonTableExpression& b)
    { return a.name == b.name && sameSelect(a.query, b.query); };
    return std::equal(left.with.begin(), left.with.end(), right.with.begin(), right.with.end(),
                      same_cte) &&
           left.distinct == right.distinct &&
           std::equal(left.items.begin(), left.items.end(), right.items.begin(), right.items.end(),
                      same_item) &&
           left.from == right.from && sameSelect(left.from_subquery, right.from_subquery) &&
           left.from_alias == right.from_alias &&
           sameArrayJoin(left.array_join, right.array_join) &&
           sameExpression(left.where, right.where) &&
           sameExpressions(left.group_by, right.group_by) && left.grouping == right.grouping &&
           std::equal(left.grouping_sets.begin(), left.grouping_sets.end(),
                      right.grouping_sets.begin(), right.grouping_sets.end(), sameExpressions) &&
           left.with_totals == right.with_totals && sameExpression(left.having, right.having) &&
           std::equal(left.order_by.begin(), left.order_by.end(), right.order_by.begin(),
                      right.order_by.end(), same_order) &&
           sameLimitBy(left.limit_by, right.limit_by) && left.limit == right.limit &&
           left.offset == right.offset &&
           std::equal(left.union_all.begin(), left.union_all.end(), right.union_all.begin(),
                      right.union_all.end(), sameSelect);
}

bool operator==(const CreateTableStatement& left, const CreateTableStatement& right)
{
    const auto same_column = [](const ColumnDefinition& a, const ColumnDefinition& b)
    {
        return a.name == b.name && a.type == b.type && a.not_null == b.not_null &&
               sameExpression(a.default_value, b.default_value) && a.codec == b.codec;
    };
    const auto same_setting = [](const Setting& a, const Setting& b)
    { return a.name == b.name && a.value == b.value; };
    const auto same_index = [](const IndexDefinition& a, const IndexDefinition& b)
    {
        return a.name == b.name && sameExpression(a.expression, b.expression) &&
               sameExpression(a.type, b.type) && a.granularity == b.granularity;
    };
    return left.table == right.table && left.or_replace == right.or_replace &&
           left.if_not_exists == right.if_not_exists &&
           std::equal(left.columns.begin(), left.columns.end(), right.columns.begin(),
                      right.columns.end(), same_column) &&
           sameExpressions(left.primary_key, right.primary_key) && left.engine == right.engine &&
           sameExpressions(left.engine_arguments, right.engine_arguments) &&
           sameExpressions(left.order_by, right.order_by) &&
           std::equal(left.indexes.begin(), left.indexes.end(), right.indexes.begin(),
                      right.indexes.end(), same_index) &&
           sameExpression(left.partition_by, right.partition_by) &&
           sameExpression(left.ttl, right.ttl) &&
           std::equal(left.settings.begin(), left.settings.end(), right.settings.begin(),
                      right.settings.end(), same_setting);
}

bool operator==(const InsertStatement& left, const InsertStatement& right)
{
    const bool same_select =
        left.select && right.select ? *left.select == *right.select : !left.select && !right.select;
    return left.table == right.table && left.columns == right.columns &&
           left.infile == right.infile && left.format == right.format && same_select &&
           std::equal(left.rows.begin(), left.rows.end(), right.rows.begin(), right.rows.end(),
                      sameExpressions);
}

bool operator==(const DropTableStatement& left, const DropTableStatement& right)
{
    return left.table == right.table && left.if_exists == right.if_exists;
}

bool operator==(const ShowTablesStatement&, const ShowTablesStatement&)
{
    return true;
}

bool operator==(const DescribeTableStatement& left, const DescribeTableStatement& right)
{
    return left.table == right.table;
}

}  // namespace granary::sql
