#include "engine/planner/select_analysis.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <set>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/formats/dynamic_value.h"
#include "engine/planner/aggregate_filter_to_where.h"
#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/rewrites.h"
#include "engine/sql/select_references.h"

namespace granary
{
namespace
{

using sql::ExpressionPtr;

/// The column a stage fills with `expression`: a bare column keeps its name.
std::string columnNameOf(const sql::Expression& expression)
{
    if (const auto* column = expression.as<sql::ColumnRef>())
    {
        return column->name;
    }
    return sql::formatExpression(expression);
}

ExpressionPtr columnReference(std::string name, const sql::Expression& at)
{
    return sql::makeExpression(sql::ColumnRef{std::move(name)}, at.position);
}

/// Rebuilds `expression` top-down: where `replace` returns a node, it stands for the whole
/// subtree; elsewhere the children are visited.
ExpressionPtr replaceTopDown(const ExpressionPtr& expression,
                             const std::function<ExpressionPtr(const ExpressionPtr&)>& replace)
{
    if (ExpressionPtr replaced = replace(expression))
    {
        return replaced;
    }
    std::vector<ExpressionPtr> kids = sql::children(*expression);
    bool changed = false;
    for (ExpressionPtr& kid : kids)
    {
        ExpressionPtr replaced = replaceTopDown(kid, replace);
        changed |= replaced != kid;
        kid = std::move(replaced);
    }
    return changed ? sql::withChildren(*expression, kids) : expression;
}

/// `j.a.b`, where j is a JSON column and no column is named j.a.b, reads path a.b of j:
/// getSubcolumn(j, 'a.b'), as in ClickHouse. The longest such prefix wins.
ExpressionPtr resolveJsonPaths(const ExpressionPtr& expression, const TableSchema& schema)
{
    if (!expression)
    {
        return expression;
    }
    return replaceTopDown(
        expression,
        [&](const ExpressionPtr& node) -> ExpressionPtr
        {
            const auto* column = node->as<sql::ColumnRef>();
            if (!column || schema.indexOf(column->name))
            {
                return nullptr;
            }
            const std::string& name = column->name;
            for (size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0;
                 dot = name.rfind('.', dot - 1))
            {
                const std::optional<size_t> index = schema.indexOf(name.substr(0, dot));
                if (index && schema.columns[*index].type.id == TypeId::Json)
                {
                    sql::FunctionCall call;
                    call.name = "getSubcolumn";
                    const std::string path = name.substr(dot + 1);
                    call.arguments = {columnReference(name.substr(0, dot), *node),
                                      sql::makeExpression(sql::Literal{path}, node->position)};
                    // A typed path reads in its type, as in ClickHouse.
                    const DataType& json = schema.columns[*index].type;
                    const size_t typed = dynamic::typedPathIndex(json.typed_paths, path);
                    if (typed != dynamic::npos)
                    {
                        call.arguments.push_back(sql::makeExpression(
                            sql::Literal{dataTypeName(json.typed_path_types[typed])},
                            node->position));
                    }
                    return sql::makeExpression(std::move(call), node->position);
                }
            }
            return nullptr;
        });
}

/// HAVING and ORDER BY may name a select alias: the alias stands for its item's expression.
ExpressionPtr substituteAliases(const ExpressionPtr& expression,
                                const std::vector<sql::SelectItem>& items)
{
    return replaceTopDown(expression,
                          [&](const ExpressionPtr& node) -> ExpressionPtr
                          {
                              const auto* column = node->as<sql::ColumnRef>();
                              if (!column)
                              {
                                  return nullptr;
                              }
                              for (const sql::SelectItem& item : items)
                              {
                                  if (item.alias && *item.alias == column->name)
                                  {
                                      return item.expression;
                                  }
                              }
                              return nullptr;
                          });
}

void forEachNode(const sql::Expression& expression,
                 const std::function<void(const sql::Expression&)>& visit)
{
    visit(expression);
    for (const ExpressionPtr& kid : sql::children(expression))
    {
        forEachNode(*kid, visit);
    }
}

/// arrayJoin(x), wherever it is called, is `ARRAY JOIN x` with the call's text as the alias,
/// each call a reference to the element, as ClickHouse reads it. One array per query: calls
/// over different arrays, or beside an ARRAY JOIN clause, are kNotImplemented.
void resolveArrayJoinCalls(sql::SelectStatement& select)
{
    std::optional<sql::ArrayJoinClause> found;
    sql::rewriteExpressions(
        select,
        [&](const ExpressionPtr& expression)
        {
            return replaceTopDown(
                expression,
                [&](const ExpressionPtr& node) -> ExpressionPtr
                {
                    const auto* call = node->as<sql::FunctionCall>();
                    if (!call || lowerCaseAscii(call->name) != "arrayjoin")
                    {
                        return nullptr;
                    }
                    const std::string text = sql::formatExpression(*node);
                    if (call->arguments.size() != 1)
                    {
                        throw Exception(ErrorCode::kBadArguments,
                                        text + " at " + sql::describePosition(node->position) +
                                            " takes one array");
                    }
                    if (select.array_join || (found && found->alias != text))
                    {
                        throw Exception(ErrorCode::kNotImplemented,
                                        text + " at " + sql::describePosition(node->position) +
                                            ": one ARRAY JOIN or arrayJoin array per query");
                    }
                    found = sql::ArrayJoinClause{call->arguments[0], text, false};
                    return columnReference(text, *node);
                });
        });
    if (found)
    {
        select.array_join = std::move(found);
    }
}

/// WHERE is applied before ARRAY JOIN: one naming the element cannot be.
void checkWhereBeforeArrayJoin(const sql::SelectStatement& select)
{
    if (!select.array_join || !select.where)
    {
        return;
    }
    forEachNode(*select.where,
                [&](const sql::Expression& node)
                {
                    const auto* column = node.as<sql::ColumnRef>();
                    if (column && column->name == select.array_join->alias)
                    {
                        throw Exception(ErrorCode::kNotImplemented,
                                        "WHERE at " + sql::describePosition(node.position) +
                                            " reads the ARRAY JOIN element " + column->name +
                                            ": WHERE filters the rows before they are joined");
                    }
                });
}

/// Throws kBadArguments for the first aggregate call inside `expression`, saying `where` it
/// was found ("in WHERE", "inside another aggregate function").
void rejectAggregates(const sql::Expression& expression, std::string_view where)
{
    forEachNode(expression,
                [&](const sql::Expression& node)
                {
                    if (sql::isAggregateCall(node))
                    {
                        throw Exception(ErrorCode::kBadArguments,
                                        "aggregate function " + sql::formatExpression(node) +
                                            " at " + sql::describePosition(node.position) +
                                            " is not allowed " + std::string(where));
                    }
                });
}

/// Every column a final-stage expression still reads must be a column of the stage.
void checkStageColumns(const ExpressionPtr& expression, const std::set<std::string>& stage)
{
    forEachNode(*expression,
                [&](const sql::Expression& node)
                {
                    const auto* column = node.as<sql::ColumnRef>();
                    if (column && !stage.contains(column->name))
                    {
                        throw Exception(ErrorCode::kNotAnAggregate,
                                        "column " + column->name + " at " +
                                            sql::describePosition(node.position) +
                                            " is neither aggregated nor in GROUP BY");
                    }
                });
}

/// Adds a scan output (once per name) and returns its name.
std::string addScanOutput(AnalyzedSelect& analyzed, const ExpressionPtr& expression)
{
    std::string name = columnNameOf(*expression);
    const bool known = std::any_of(analyzed.scan_outputs.begin(), analyzed.scan_outputs.end(),
                                   [&](const ScanOutput& output) { return output.name == name; });
    if (!known)
    {
        analyzed.scan_outputs.push_back({name, expression});
    }
    return name;
}

std::vector<sql::SelectItem> expandAsterisk(const std::vector<sql::SelectItem>& items,
                                            const TableSchema& schema)
{
    std::vector<sql::SelectItem> expanded;
    for (const sql::SelectItem& item : items)
    {
        if (item.expression->as<sql::Asterisk>())
        {
            for (const ColumnSchema& column : schema.columns)
            {
                expanded.push_back(
                    {sql::makeExpression(sql::ColumnRef{column.name}, item.expression->position),
                     std::nullopt});
            }
        }
        else
        {
            expanded.push_back(item);
        }
    }
    return expanded;
}

/// GROUP BY / ORDER BY keys name positions and aliases; resolve them to expressions.
ExpressionPtr resolveKey(const sql::SelectStatement& select, const ExpressionPtr& key)
{
    const sql::SelectItem* item = sql::referencedSelectItem(select, *key);
    return item ? item->expression : key;
}

/// An ORDER BY key that is no select item by itself may still use aliases inside.
ExpressionPtr resolveOrderKey(const sql::SelectStatement& select, const ExpressionPtr& key)
{
    const ExpressionPtr resolved = resolveKey(select, key);
    return resolved == key ? substituteAliases(key, select.items) : resolved;
}

/// A parametric aggregate's parameter: a number literal, possibly negated.
double parameterValue(const sql::FunctionCall& call, const sql::Expression& parameter)
{
    const sql::Expression* literal = &parameter;
    double sign = 1;
    if (const auto* unary = parameter.as<sql::UnaryOperation>();
        unary && unary->op == sql::UnaryOperator::Negate)
    {
        literal = unary->operand.get();
        sign = -1;
    }
    if (const auto* value = literal->as<sql::Literal>())
    {
        if (const auto* natural = std::get_if<uint64_t>(&value->value))
        {
            return sign * static_cast<double>(*natural);
        }
        if (const auto* integer = std::get_if<int64_t>(&value->value))
        {
            return sign * static_cast<double>(*integer);
        }
        if (const auto* real = std::get_if<double>(&value->value))
        {
            return sign * *real;
        }
    }
    throw Exception(ErrorCode::kBadArguments,
                    "parameter " + sql::formatExpression(parameter) + " of " + call.name + " at " +
                        sql::describePosition(parameter.position) + " must be a number literal");
}

/// The engine's description of an aggregate call: count(DISTINCT x) is uniqExact(x), and
/// f(...) FILTER (WHERE c) is f(...) masked by c (as fIf(..., c) is).
/// fMerge(s): the type of the state column s, which says how f was made; kTypeMismatch naming
/// the argument when it is not a column of AggregateFunction(...) states.
DataType mergedStateType(const sql::FunctionCall& call, const TableSchema& schema,
                         const sql::SourcePosition& position)
{
    const auto* column =
        call.arguments.size() == 1 ? call.arguments[0]->as<sql::ColumnRef>() : nullptr;
    const std::optional<size_t> index = column ? schema.indexOf(column->name) : std::nullopt;
    if (!index || !schema.columns[*index].type.isAggregateState())
    {
        throw Exception(ErrorCode::kTypeMismatch,
                        "aggregate function " + call.name +
                            " takes one column of AggregateFunction(...) states at " +
                            sql::describePosition(position));
    }
    return schema.columns[*index].type;
}

/// uniqExact under any of its names (the registry knows its aliases).
bool isExactDistinctCount(std::string_view name)
{
    const AggregateFunctionEntry* entry = findAggregateFunction(name);
    return entry != nullptr && entry == findAggregateFunction("uniqExact");
}

/// A distinct count of several values counts their tuples: one argument, _rowKey(a, b, ...),
/// whose bytes are equal exactly when the tuples are.
std::vector<ExpressionPtr> distinctCountArguments(const sql::FunctionCall& call,
                                                  bool counts_distinct)
{
    if (!counts_distinct || call.arguments.size() < 2)
    {
        return call.arguments;
    }
    const sql::SourcePosition position = call.arguments.front()->position;
    return {sql::makeExpression(sql::FunctionCall{"_rowKey", call.arguments, false}, position)};
}

AggregateDescription describeAggregate(const sql::FunctionCall& call, AnalyzedSelect& analyzed)
{
    for (const ExpressionPtr& argument : call.arguments)
    {
        rejectAggregates(*argument, "inside another aggregate function");
    }
    if (call.filter)
    {
        rejectAggregates(*call.filter, "inside another aggregate function");
    }
    AggregateDescription description;
    // count(DISTINCT x) is uniqExact(x); f(DISTINCT x) the -Distinct combinator of f.
    const bool counts_distinct =
        call.distinct ? equalsIgnoringCase(call.name, "count") : isExactDistinctCount(call.name);
    description.function = counts_distinct ? "uniqExact"
                           : call.distinct ? call.name + "Distinct"
                                           : call.name;
    for (const ExpressionPtr& parameter : call.parameters)
    {
        description.parameters.push_back(parameterValue(call, *parameter));
    }
    for (const ExpressionPtr& argument : distinctCountArguments(call, counts_distinct))
    {
        if (!argument->as<sql::Asterisk>())
        {
            description.arguments.push_back(addScanOutput(analyzed, argument));
        }
    }
    if (call.filter)
    {
        description.mask = addScanOutput(analyzed, call.filter);
    }
    return description;
}

/// What an aggregate computes, whatever its spelling: calls of equal signatures
/// (countDistinct(x) and uniqExact(x); minDistinct(x) and min(x)) are computed once. Empty
/// for names the registry does not know (their error comes later).
std::string aggregateSignature(const AggregateDescription& description)
{
    const ResolvedAggregateName resolved = resolveAggregateName(description.function);
    if (!resolved.entry)
    {
        return {};
    }
    std::string signature = resolved.entry->name;
    if (resolved.if_combinator)
    {
        signature += "If";
    }
    if (resolved.distinct_combinator && !resolved.entry->ignores_duplicates)
    {
        signature += "Distinct";
    }
    signature += resolved.array_combinator ? "Array" : "";
    signature += resolved.state_combinator ? "State" : "";
    signature += resolved.merge_combinator ? "Merge" : "";
    for (const double parameter : description.parameters)
    {
        signature += '\0' + std::to_string(std::bit_cast<uint64_t>(parameter));
    }
    signature += '\1';
    for (const std::string& argument : description.arguments)
    {
        signature += '\0' + argument;
    }
    return signature + '\1' + description.mask;
}

/// The columns `expression` reads.
std::set<std::string> columnsOf(const sql::Expression& expression)
{
    std::set<std::string> columns;
    forEachNode(expression,
                [&](const sql::Expression& node)
                {
                    if (const auto* column = node.as<sql::ColumnRef>())
                    {
                        columns.insert(column->name);
                    }
                });
    return columns;
}

/// Which GROUP BY keys add nothing to the grouping, and are left out of it (computed after
/// the aggregation from the keys that stay, as ClickHouse's optimize_group_by_constant_keys and
/// optimize_group_by_function_keys do): a constant, beside a key that is not; an expression
/// whose every column is itself a key (`ClientIP - 1` beside `ClientIP`), being a function of
/// them. Every function Granary has is deterministic, so such keys split no group.
std::vector<bool> redundantGroupKeys(const std::vector<ExpressionPtr>& keys,
                                     const AnalysisOptions& options)
{
    std::set<std::string> column_keys;
    bool some_key_reads_a_column = false;
    for (const ExpressionPtr& key : keys)
    {
        if (const auto* column = key->as<sql::ColumnRef>())
        {
            column_keys.insert(column->name);
        }
        some_key_reads_a_column = some_key_reads_a_column || !columnsOf(*key).empty();
    }
    std::vector<bool> redundant(keys.size(), false);
    for (size_t k = 0; k < keys.size(); ++k)
    {
        if (keys[k]->as<sql::ColumnRef>())
        {
            continue;
        }
        const std::set<std::string> columns = columnsOf(*keys[k]);
        if (columns.empty())
        {
            redundant[k] = options.eliminate_constant_group_keys && some_key_reads_a_column;
        }
        else
        {
            redundant[k] = options.eliminate_group_keys_of_keys &&
                           std::includes(column_keys.begin(), column_keys.end(), columns.begin(),
                                         columns.end());
        }
    }
    return redundant;
}

/// The GROUP BY keys that stay (redundantGroupKeys), as scan outputs and group keys, each with
/// its column name, which also joins `stage`.
std::vector<std::pair<ExpressionPtr, std::string>> analyzeGroupKeys(
    const sql::SelectStatement& select, const AnalysisOptions& options, AnalyzedSelect& analyzed,
    std::set<std::string>& stage)
{
    std::vector<ExpressionPtr> key_expressions;
    for (const ExpressionPtr& key : select.group_by)
    {
        key_expressions.push_back(resolveKey(select, key));
    }
    const std::vector<bool> redundant = redundantGroupKeys(key_expressions, options);
    std::vector<std::pair<ExpressionPtr, std::string>> keys;
    for (size_t k = 0; k < key_expressions.size(); ++k)
    {
        if (redundant[k])
        {
            continue;  // the final stage computes it from the keys that stay
        }
        const ExpressionPtr& expression = key_expressions[k];
        std::string name = addScanOutput(analyzed, expression);
        if (std::find(analyzed.group_keys.begin(), analyzed.group_keys.end(), name) ==
            analyzed.group_keys.end())
        {
            analyzed.group_keys.push_back(name);
        }
        stage.insert(name);
        keys.emplace_back(expression, std::move(name));
    }
    return keys;
}

/// The aggregate functions to compute, one per signature, their results joining `stage`;
/// returns each call's key (as written) mapped to the result column that computes it.
std::map<std::string, std::string> analyzeAggregateCalls(const sql::SelectStatement& select,
                                                         const TableSchema& schema,
                                                         AnalyzedSelect& analyzed,
                                                         std::set<std::string>& stage)
{
    std::map<std::string, std::string> result_of_key;
    std::map<std::string, std::string> result_of_signature;
    for (const sql::AggregateCall& aggregate : sql::collectAggregates(select))
    {
        AggregateDescription description =
            describeAggregate(*aggregate.call->as<sql::FunctionCall>(), analyzed);
        description.origin = sql::describePosition(aggregate.call->position);
        if (resolveAggregateName(description.function).merge_combinator)
        {
            description.merged_state = mergedStateType(*aggregate.call->as<sql::FunctionCall>(),
                                                       schema, aggregate.call->position);
        }
        const std::string signature = aggregateSignature(description);
        const auto computed = result_of_signature.find(signature);
        if (!signature.empty() && computed != result_of_signature.end())
        {
            result_of_key[aggregate.key] = computed->second;
            continue;
        }
        result_of_signature[signature] = aggregate.key;
        result_of_key[aggregate.key] = aggregate.key;
        description.result_name = aggregate.key;
        stage.insert(aggregate.key);
        analyzed.aggregate_functions.push_back(std::move(description));
    }
    return result_of_key;
}

/// ORDER BY and LIMIT BY keys (positions and aliases resolved) as final-stage expressions,
/// which `to_stage` makes of an expression over the source's columns.
void analyzeOrdering(const sql::SelectStatement& select, AnalyzedSelect& analyzed,
                     const std::function<ExpressionPtr(const ExpressionPtr&)>& to_stage)
{
    for (const sql::OrderByItem& item : select.order_by)
    {
        analyzed.order_keys.push_back(to_stage(resolveOrderKey(select, item.expression)));
        analyzed.descending.push_back(item.descending);
        analyzed.nulls_first.push_back(item.nulls_first);
    }
    if (select.limit_by)
    {
        sql::LimitBy limit_by = *select.limit_by;
        for (ExpressionPtr& key : limit_by.keys)
        {
            key = to_stage(resolveOrderKey(select, key));
        }
        analyzed.limit_by = std::move(limit_by);
    }
}

void analyzeAggregation(const sql::SelectStatement& select, const TableSchema& schema,
                        const AnalysisOptions& options, AnalyzedSelect& analyzed)
{
    std::set<std::string> stage;
    const std::vector<std::pair<ExpressionPtr, std::string>> keys =
        analyzeGroupKeys(select, options, analyzed, stage);
    const std::map<std::string, std::string> result_of_key =
        analyzeAggregateCalls(select, schema, analyzed, stage);

    auto to_stage = [&](const ExpressionPtr& expression)
    {
        ExpressionPtr replaced = replaceTopDown(
            expression,
            [&](const ExpressionPtr& node) -> ExpressionPtr
            {
                if (sql::isAggregateCall(*node))
                {
                    return columnReference(
                        result_of_key.at(sql::aggregateKey(*node->as<sql::FunctionCall>())), *node);
                }
                for (const auto& [key, name] : keys)
                {
                    if (*key == *node)
                    {
                        return columnReference(name, *node);
                    }
                }
                return nullptr;
            });
        checkStageColumns(replaced, stage);
        return replaced;
    };
    for (const sql::SelectItem& item : select.items)
    {
        analyzed.outputs.push_back(to_stage(item.expression));
    }
    if (select.having)
    {
        analyzed.having = to_stage(substituteAliases(select.having, select.items));
    }
    analyzeOrdering(select, analyzed, to_stage);
}

void analyzeRows(const sql::SelectStatement& select, AnalyzedSelect& analyzed)
{
    if (select.having)
    {
        throw Exception(ErrorCode::kBadArguments,
                        "HAVING at " + sql::describePosition(select.having->position) +
                            " needs GROUP BY or an aggregate function");
    }
    for (const sql::SelectItem& item : select.items)
    {
        analyzed.outputs.push_back(
            columnReference(addScanOutput(analyzed, item.expression), *item.expression));
    }
    analyzeOrdering(select, analyzed,
                    [&](const ExpressionPtr& key)
                    { return columnReference(addScanOutput(analyzed, key), *key); });
}

}  // namespace

std::string outputNameOf(const sql::SelectItem& item)
{
    return item.alias ? *item.alias : columnNameOf(*item.expression);
}

AnalyzedSelect analyzeSelect(const sql::SelectStatement& original, const TableSchema& schema,
                             const AnalysisOptions& options)
{
    sql::SelectStatement select = original;
    select.items = expandAsterisk(original.items, schema);
    if (options.rewrite_sum_of_column_and_constant)
    {
        sql::SumRewriteOptions rewrite;
        rewrite.accepts_column = [&](std::string_view name, bool checked)
        {
            const std::optional<size_t> index = schema.indexOf(name);
            return index && isInteger(schema.columns[*index].type.id) &&
                   (!checked || fixedWidth(schema.columns[*index].type.id) < sizeof(int64_t));
        };
        select = sql::rewriteSumOfColumnAndConstant(select, rewrite);
    }

    AnalyzedSelect analyzed;
    for (const sql::SelectItem& item : select.items)
    {
        analyzed.output_names.push_back(outputNameOf(item));
    }
    sql::rewriteExpressions(select, [&](const ExpressionPtr& expression)
                            { return resolveJsonPaths(expression, schema); });
    resolveArrayJoinCalls(select);
    // After output_names (they keep the filters) and after arrayJoin() calls became the ARRAY
    // JOIN clause, which the rewrite leaves alone.
    if (options.aggregate_filters_to_where)
    {
        moveSharedAggregateFilterToWhere(select);
    }
    checkWhereBeforeArrayJoin(select);
    analyzed.array_join = select.array_join;
    analyzed.where = select.where;
    analyzed.limit = select.limit;
    analyzed.offset = select.offset;
    if (analyzed.where)
    {
        rejectAggregates(*analyzed.where, "in WHERE");
    }
    analyzed.aggregates = !select.group_by.empty() || !sql::collectAggregates(select).empty();
    if (analyzed.aggregates)
    {
        analyzeAggregation(select, schema, options, analyzed);
    }
    else
    {
        analyzeRows(select, analyzed);
    }
    return analyzed;
}

}  // namespace granary
