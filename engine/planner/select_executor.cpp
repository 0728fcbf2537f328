#include "engine/planner/select_executor.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <optional>

#include "engine/aggregation/aggregator.h"
#include "engine/columns/gather.h"
#include "engine/columns/sort_permutation.h"
#include "engine/common/exception.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/expressions/filter.h"
#include "engine/planner/late_materialization.h"
#include "engine/planner/metadata_aggregation.h"
#include "engine/planner/rows_per_key.h"
#include "engine/planner/select_analysis.h"
#include "engine/planner/select_stages.h"

namespace granary
{
namespace
{

ColumnTypeLookup lookupIn(const Block& block)
{
    return [&block](std::string_view name) -> std::optional<DataType>
    {
        if (const Column* column = block.find(name))
        {
            return column->dataType();
        }
        return std::nullopt;
    };
}

Block gatherBlock(const Block& block, std::span<const uint32_t> rows)
{
    Block gathered;
    gatherBlockRows(block, rows, gathered);
    return gathered;
}

/// LIMIT + OFFSET rows (saturating at SIZE_MAX); SIZE_MAX without LIMIT.
size_t limitAndOffsetRows(const AnalyzedSelect& analyzed)
{
    if (!analyzed.limit)
    {
        return SIZE_MAX;
    }
    const uint64_t limit = *analyzed.limit;
    const uint64_t sum =
        limit > UINT64_MAX - analyzed.offset ? UINT64_MAX : limit + analyzed.offset;
    return static_cast<size_t>(std::min<uint64_t>(sum, SIZE_MAX));
}

/// Rows a stage must keep for LIMIT + OFFSET; every row under LIMIT BY, which comes first.
size_t rowsWanted(const AnalyzedSelect& analyzed)
{
    return analyzed.limit_by ? SIZE_MAX : limitAndOffsetRows(analyzed);
}

/// The column a top-N scan may skip morsels by: the leading ORDER BY column of a query with
/// LIMIT and no aggregation, where it is an integer column of the sort key (granule bounds
/// exist for it, and doubles keep its order); none otherwise.
std::optional<std::string> topRowsSortKey(const AnalyzedSelect& analyzed, const TableSchema& schema)
{
    // With ARRAY JOIN a name may be the element's, not the sort-key column's.
    if (analyzed.aggregates || analyzed.array_join || rowsWanted(analyzed) == SIZE_MAX ||
        analyzed.order_keys.empty())
    {
        return std::nullopt;
    }
    const auto* column = analyzed.order_keys[0]->as<sql::ColumnRef>();
    const std::optional<size_t> index = column ? schema.indexOf(column->name) : std::nullopt;
    if (!index || !isInteger(schema.columns[*index].type.id) ||
        std::find(schema.sort_key.begin(), schema.sort_key.end(), column->name) ==
            schema.sort_key.end())
    {
        return std::nullopt;
    }
    return column->name;
}

/// The N-th best value of the leading ORDER BY column among the rows kept so far, shared by
/// the workers of a top-N scan: a morsel whose granule bounds are all worse holds no row of
/// the result (ties keep earlier rows, so only strictly worse ones are left out) and is not
/// read. For the integer sort-key column topRowsSortKey names (Date and DateTime included).
class TopRowsThreshold
{
public:
    /// `column`: topRowsSortKey's.
    TopRowsThreshold(const TableScan& scan, std::string column, bool descending)
        : scan_(scan),
          column_(std::move(column)),
          descending_(descending),
          threshold_(descending ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity())
    {
    }

    /// Whether morsel `morsel` cannot enter the top rows (then counted as skipped).
    bool skip(size_t morsel)
    {
        // The morsel's best value: its least when ascending, its greatest when descending.
        const double best = *scan_.sortKeyBound(morsel, column_, descending_);
        const double threshold = threshold_.load(std::memory_order_relaxed);
        const bool outside = descending_ ? best < threshold : best > threshold;
        skipped_ += outside;
        return outside;
    }

    /// A morsel kept its N best rows; `values` row `row` is the N-th.
    void offer(const ColumnView& values, size_t row)
    {
        const double value = dispatchFixedType(
            values.type, [&]<typename T>(TypeTag<T>) { return double(values.valueAt<T>(row)); });
        double current = threshold_.load(std::memory_order_relaxed);
        while ((descending_ ? value > current : value < current) &&
               !threshold_.compare_exchange_weak(current, value, std::memory_order_relaxed))
        {
        }
    }

    size_t skipped() const { return skipped_.load(); }

private:
    const TableScan& scan_;
    std::string column_;
    bool descending_;
    std::atomic<double> threshold_;
    std::atomic<size_t> skipped_{0};
};

/// The rows of a query without aggregation: each morsel keeps its top-N (or, without ORDER
/// BY, the scan stops once LIMIT + OFFSET rows are in), then the morsels' rows are joined in
/// morsel order. A top-N skips the morsels that TopRowsThreshold rules out.
/// Positions among the scan's columns of the ORDER BY keys (scan outputs, by name).
std::vector<size_t> orderColumnsOf(const TableScan& scan, const AnalyzedSelect& analyzed)
{
    std::vector<size_t> order_columns;
    for (const sql::ExpressionPtr& key : analyzed.order_keys)
    {
        const std::string& name = key->as<sql::ColumnRef>()->name;
        for (size_t c = 0; c < scan.columns().size(); ++c)
        {
            if (scan.columns()[c].name == name)
            {
                if (isNested(scan.columns()[c].type.id))
                {
                    throw Exception(ErrorCode::kTypeMismatch,
                                    "ORDER BY " + name + ": " +
                                        dataTypeName(scan.columns()[c].type) + " has no order");
                }
                order_columns.push_back(c);
                break;
            }
        }
    }
    return order_columns;
}

/// The rows of a morsel that may be among the first `wanted`: its own top `wanted` in the
/// ORDER BY (offered to `threshold`), or its first `wanted` without one.
std::vector<uint32_t> keptRows(const std::vector<ColumnView>& columns, size_t rows,
                               const std::vector<size_t>& order_columns,
                               const AnalyzedSelect& analyzed, size_t wanted,
                               TopRowsThreshold* threshold)
{
    std::vector<uint32_t> keep;
    if (order_columns.empty() || rows <= wanted)
    {
        keep.resize(std::min(rows, wanted));
        std::iota(keep.begin(), keep.end(), 0);
        return keep;
    }
    std::vector<SortKey> keys;
    for (size_t k = 0; k < order_columns.size(); ++k)
    {
        keys.push_back(
            {columns[order_columns[k]], analyzed.descending[k], analyzed.nulls_first[k]});
    }
    keep = sortedPermutation(keys, rows, wanted);
    if (threshold && !keep.empty())  // LIMIT 0 keeps nothing, and offers nothing
    {
        threshold->offer(columns[order_columns[0]], keep.back());
    }
    return keep;
}

/// A morsel's rows that may be among the first `wanted`; with late materialization, also
/// where they are in the table.
struct Fragment
{
    Block rows;
    std::vector<RowLocation> locations;
};

/// The scan's columns, empty, then every fragment's rows in morsel order (and their
/// locations, appended to `locations`).
Block joinFragments(const TableScan& scan, const std::vector<std::optional<Fragment>>& fragments,
                    std::vector<RowLocation>& locations)
{
    Block rows;
    for (const InputColumn& column : scan.columns())
    {
        rows.columns.push_back({column.name, Column(column.type)});
    }
    for (const std::optional<Fragment>& fragment : fragments)
    {
        if (fragment)
        {
            appendBlock(rows, fragment->rows);
            locations.insert(locations.end(), fragment->locations.begin(),
                             fragment->locations.end());
        }
    }
    return rows;
}

/// Late materialization's second step: the top rows of `keys` (the key scan's kept rows, at
/// `locations`), every output fetched for them alone.
Block fetchTopRows(const SelectPlan& plan, const Block& keys,
                   const std::vector<RowLocation>& locations,
                   const std::vector<size_t>& order_columns, QueryContext& context)
{
    std::vector<ColumnView> key_columns;
    for (const BlockView::Entry& entry : BlockView::of(keys).columns)
    {
        key_columns.push_back(entry.column);
    }
    std::vector<RowLocation> top;
    for (const uint32_t row : keptRows(key_columns, keys.rows(), order_columns, plan.analyzed,
                                       rowsWanted(plan.analyzed), nullptr))
    {
        top.push_back(locations[row]);
    }
    context.stats().late_materialized_rows = top.size();
    return plan.row_fetcher->fetch(top);
}

/// LIMIT n BY keys over the stage's rows in `order`.
std::vector<uint32_t> limitRowsByKeys(const Block& stage, const std::vector<uint32_t>& order,
                                      const sql::LimitBy& limit_by)
{
    const ColumnTypeLookup lookup = lookupIn(stage);
    const BlockView view = BlockView::of(stage);
    std::vector<Column> holders(limit_by.keys.size());
    std::vector<ColumnView> keys;
    for (size_t k = 0; k < limit_by.keys.size(); ++k)
    {
        keys.push_back(compileExpression(limit_by.keys[k], lookup)
                           .evaluate(view, 0, stage.rows(), holders[k]));
    }
    return rowsWithinKeyLimit(keys, order, limit_by.offset, limit_by.limit);
}

/// An output's rows as a column, Nullable where the expression is (even with no NULL here),
/// of AggregateFunction(...) states where it is (a view holds a String).
Column materialize(const CompiledExpression& output, const ColumnView& view)
{
    Column column =
        output.dataType().isAggregateState() ? Column(output.dataType()) : Column::emptyLike(view);
    column.appendRange(view, 0, view.rows);
    if (output.dataType().nullable)
    {
        column.setNullable();
    }
    return column;
}

/// WITH TOTALS' row before the select list: each key at its type's default (NULL where
/// Nullable), as ClickHouse writes it, and the aggregates over the groups of `stage` (those
/// HAVING kept), whose state columns are then dropped.
Block totalsStage(const SelectPlan& plan, Block& stage, const GroupTotals& totals,
                  QueryContext& context)
{
    Block row = totals.merge(stage, context);
    const std::vector<std::string> states = totals.stateColumns();
    std::erase_if(stage.columns, [&](const Block::Entry& entry)
                  { return std::find(states.begin(), states.end(), entry.name) != states.end(); });
    restoreNullResults(plan.nulls, row, stage.rows() == 0);
    for (const std::string& key : plan.analyzed.group_keys)
    {
        const Column* values = stage.find(key);
        if (values == nullptr)
        {
            continue;  // A hidden NULL marker, gone with restoreNulls.
        }
        Column value = values->emptyLike();
        if (values->dataType().nullable)
        {
            value.appendNull();
        }
        else
        {
            value.appendDefaults(1);
        }
        row.columns.push_back({key, std::move(value)});
    }
    return row;
}

/// The result and its totals row share each column's type: Nullable in both where either
/// may hold a NULL (a client reads the two blocks with one header).
void unifyNullability(Block& result, Block& totals)
{
    for (size_t c = 0; c < result.columns.size(); ++c)
    {
        Column& rows = result.columns[c].column;
        Column& total = totals.columns[c].column;
        if (rows.dataType().nullable || total.dataType().nullable)
        {
            rows.setNullable();
            total.setNullable();
        }
    }
}

}  // namespace

Block collectRows(const SelectPlan& plan, QueryContext& context)
{
    const TableScan& scan = *plan.scan;
    const AnalyzedSelect& analyzed = plan.analyzed;
    const std::optional<std::string>& top_rows_sort_key = plan.top_rows_sort_key;
    const size_t wanted = rowsWanted(analyzed);
    const std::vector<size_t> order_columns = orderColumnsOf(scan, analyzed);
    const bool ordered = !order_columns.empty();
    const bool locate = plan.row_fetcher != nullptr;
    std::optional<TopRowsThreshold> threshold;
    if (top_rows_sort_key)
    {
        threshold.emplace(scan, *top_rows_sort_key, analyzed.descending[0]);
    }
    std::vector<std::optional<Fragment>> fragments(scan.morsels());
    std::atomic<size_t> next_morsel{0};
    std::atomic<size_t> collected{0};
    PhaseRecorder recorder(context.stats().phase(QueryPhase::kPartial));
    const size_t workers = std::max<size_t>(1, std::min(context.threads(), scan.morsels()));
    context.runWorkers(
        workers,
        [&](size_t)
        {
            const std::unique_ptr<MorselBuffers> buffers = scan.makeBuffers();
            std::vector<ColumnView> columns;
            for (size_t morsel = next_morsel++; morsel < scan.morsels(); morsel = next_morsel++)
            {
                if (!ordered && collected.load() >= wanted)
                {
                    break;
                }
                context.checkCancelled();
                if (threshold && threshold->skip(morsel))
                {
                    continue;
                }
                TaskTimer timer(recorder);
                const size_t rows = scan.produce(morsel, buffers.get(), columns);
                const std::vector<uint32_t> keep =
                    keptRows(columns, rows, order_columns, analyzed, wanted,
                             threshold ? &*threshold : nullptr);
                Fragment fragment;
                for (size_t c = 0; c < columns.size(); ++c)
                {
                    Column column = Column::emptyLike(columns[c]);
                    gatherRows(columns[c], 0, keep, column);
                    fragment.rows.columns.push_back({scan.columns()[c].name, std::move(column)});
                }
                if (locate)
                {
                    scan.locateRows(morsel, *buffers, keep, fragment.locations);
                }
                collected += keep.size();
                fragments[morsel] = std::move(fragment);
            }
        });
    if (threshold)
    {
        context.stats().top_rows_morsels_skipped = threshold->skipped();
    }
    std::vector<RowLocation> locations;
    Block rows = joinFragments(scan, fragments, locations);
    return locate ? fetchTopRows(plan, rows, locations, order_columns, context) : rows;
}

std::optional<TopGroups> topGroupsOf(const AnalyzedSelect& analyzed)
{
    if (rowsWanted(analyzed) == SIZE_MAX || analyzed.having)
    {
        return std::nullopt;
    }
    TopGroups top;
    top.rows = rowsWanted(analyzed);
    for (size_t k = 0; k < analyzed.order_keys.size(); ++k)
    {
        const auto* column = analyzed.order_keys[k]->as<sql::ColumnRef>();
        if (column == nullptr)
        {
            return std::nullopt;
        }
        top.order.push_back({column->name, analyzed.descending[k]});
    }
    return top;
}

void recordAggregation(const AnalyzedSelect& analyzed, QueryStats& stats)
{
    stats.group_keys = analyzed.group_keys;
    for (const AggregateDescription& aggregate : analyzed.aggregate_functions)
    {
        stats.aggregates.push_back(aggregate.result_name);
    }
}

Block filterHaving(Block stage, const AnalyzedSelect& analyzed)
{
    if (!analyzed.having)
    {
        return stage;
    }
    const CompiledExpression having = compileExpression(analyzed.having, lookupIn(stage));
    std::vector<uint32_t> selected;
    filterRows(having, BlockView::of(stage), 0, stage.rows(), selected);
    return selected.size() < stage.rows() ? gatherBlock(stage, selected) : std::move(stage);
}

Block orderAndLimit(Block stage, const AnalyzedSelect& analyzed, bool apply_offset)
{
    const size_t rows = stage.rows();
    const size_t wanted = std::min(rowsWanted(analyzed), rows);
    std::vector<uint32_t> permutation;
    if (!analyzed.order_keys.empty())
    {
        const ColumnTypeLookup lookup = lookupIn(stage);
        const BlockView view = BlockView::of(stage);
        std::vector<Column> holders(analyzed.order_keys.size());
        std::vector<SortKey> keys;
        for (size_t k = 0; k < analyzed.order_keys.size(); ++k)
        {
            const CompiledExpression key = compileExpression(analyzed.order_keys[k], lookup);
            keys.push_back({key.evaluate(view, 0, rows, holders[k]), analyzed.descending[k],
                            analyzed.nulls_first[k]});
        }
        permutation = sortedPermutation(keys, rows, wanted);
    }
    else
    {
        permutation.resize(wanted);
        std::iota(permutation.begin(), permutation.end(), 0);
    }
    if (apply_offset && analyzed.limit_by)
    {
        permutation = limitRowsByKeys(stage, permutation, *analyzed.limit_by);
        permutation.resize(std::min(permutation.size(), limitAndOffsetRows(analyzed)));
    }
    if (apply_offset)
    {
        permutation.erase(
            permutation.begin(),
            permutation.begin() + std::min<size_t>(analyzed.offset, permutation.size()));
    }
    // A sort permutation reorders even when it keeps every row.
    if (permutation.size() < rows || !analyzed.order_keys.empty())
    {
        stage = gatherBlock(stage, permutation);
    }
    return stage;
}

Block projectOutputs(const Block& stage, const AnalyzedSelect& analyzed)
{
    const ColumnTypeLookup lookup = lookupIn(stage);
    Block result;
    const BlockView view = BlockView::of(stage);
    for (size_t i = 0; i < analyzed.outputs.size(); ++i)
    {
        const CompiledExpression output = compileExpression(analyzed.outputs[i], lookup);
        Column holder;
        result.columns.push_back(
            {analyzed.output_names[i],
             materialize(output, output.evaluate(view, 0, stage.rows(), holder))});
    }
    return result;
}

SelectPlan planSelect(const sql::SelectStatement& select, const Table& table,
                      const AnalysisOptions& options, const ScanObserver& observer,
                      ScanCaches caches)
{
    const TableSchema& schema = table.schema();
    SelectPlan plan;
    plan.analyzed = analyzeSelect(select, schema, options);
    const std::shared_ptr<const TableSnapshot> snapshot = table.snapshot();
    plan.nulls = lowerNullAggregation(plan.analyzed, schema, columnsWithNulls(*snapshot, schema));
    // A top-N scan that can skip by sort-key bounds reads one granule per morsel: the bounds
    // of a whole 8-granule morsel rarely rule it out where a granule's do.
    plan.top_rows_sort_key = topRowsSortKey(plan.analyzed, schema);
    const size_t morsel_granules = plan.top_rows_sort_key ? 1 : TableScan::kMorselGranules;
    if (const auto keys = lateMaterializationKeys(plan.analyzed, schema, options))
    {
        plan.scan = std::make_unique<TableScan>(snapshot, schema, plan.analyzed.where, *keys,
                                                std::nullopt, observer, caches, morsel_granules);
        plan.row_fetcher = std::make_unique<TableScan>(
            snapshot, schema, nullptr, plan.analyzed.scan_outputs, std::nullopt, ScanObserver{},
            ScanCaches{.decoded = caches.decoded});
        return plan;
    }
    plan.scan = std::make_unique<TableScan>(snapshot, schema, plan.analyzed.where,
                                            plan.analyzed.scan_outputs, plan.analyzed.array_join,
                                            observer, caches, morsel_granules);
    if (plan.nulls.empty())
    {
        plan.metadata_aggregate =
            aggregateFromMetadata(plan.analyzed, *plan.scan, options.metadata_aggregation);
    }
    return plan;
}

namespace
{

/// The aggregation's groups after HAVING, their NULL keys restored; with `with_totals`, also
/// the totals row before the select list (totalsStage).
Block aggregatedStage(const SelectPlan& plan, bool with_totals, const AggregationSettings& settings,
                      QueryContext& context, std::optional<Block>& totals)
{
    const AnalyzedSelect& analyzed = plan.analyzed;
    recordAggregation(analyzed, context.stats());
    if (plan.metadata_aggregate && !with_totals)
    {
        context.stats().aggregated_from_metadata = true;
        return filterHaving(*plan.metadata_aggregate, analyzed);
    }
    const Aggregator aggregator(analyzed.group_keys, analyzed.aggregate_functions, settings);
    if (with_totals)
    {
        Aggregator::ResultWithTotals result = aggregator.executeWithTotals(*plan.scan, context);
        restoreNulls(plan.nulls, result.groups);
        Block stage = filterHaving(std::move(result.groups), analyzed);
        totals = totalsStage(plan, stage, result.totals, context);
        return stage;
    }
    // NULL keys and results are marked after the aggregation: the core's top-N would order
    // them by their stored defaults.
    const std::optional<TopGroups> top = plan.nulls.empty() ? topGroupsOf(analyzed) : std::nullopt;
    Block stage = aggregator.execute(*plan.scan, context, top ? &*top : nullptr);
    restoreNulls(plan.nulls, stage);
    return filterHaving(std::move(stage), analyzed);
}

}  // namespace

SelectOutcome executeSelect(const sql::SelectStatement& select, const Table& table,
                            QueryContext& context, const SelectSettings& settings,
                            const ScanObserver& observer, ScanCaches caches)
{
    const SelectPlan plan = planSelect(select, table, settings.analysis, observer, caches);
    const AnalyzedSelect& analyzed = plan.analyzed;
    std::optional<Block> totals;
    Block stage = analyzed.aggregates ? aggregatedStage(plan, select.with_totals,
                                                        settings.aggregation, context, totals)
                                      : filterHaving(collectRows(plan, context), analyzed);
    SelectOutcome outcome;
    outcome.block = projectOutputs(orderAndLimit(std::move(stage), analyzed, true), analyzed);
    if (totals)
    {
        outcome.totals = projectOutputs(*totals, analyzed);
        unifyNullability(outcome.block, *outcome.totals);
    }
    outcome.rows_read = plan.rowsRead();
    outcome.bytes_read = plan.bytesRead();
    outcome.granules_skipped = plan.scan->granulesSkipped();
    return outcome;
}

Block executeSelectWithoutTable(const sql::SelectStatement& select)
{
    if (select.where || !select.group_by.empty() || select.having)
    {
        throw Exception(ErrorCode::kBadArguments,
                        "SELECT without FROM takes no WHERE, GROUP BY or HAVING");
    }
    const TableSchema no_columns;
    const AnalyzedSelect analyzed = analyzeSelect(select, no_columns, {});
    if (analyzed.aggregates)
    {
        throw Exception(ErrorCode::kBadArguments, "aggregate functions need FROM a table");
    }
    // The constants are evaluated over one row of no columns.
    BlockView view;
    Block result;
    for (size_t i = 0; i < analyzed.scan_outputs.size(); ++i)
    {
        const CompiledExpression output = compileExpression(
            analyzed.scan_outputs[i].expression,
            [](std::string_view) -> std::optional<TypeId> { return std::nullopt; });
        Column holder;
        result.columns.push_back({analyzed.scan_outputs[i].name,
                                  materialize(output, output.evaluate(view, 0, 1, holder))});
    }
    Block named;
    for (size_t i = 0; i < analyzed.outputs.size(); ++i)
    {
        const std::string& source = analyzed.outputs[i]->as<sql::ColumnRef>()->name;
        named.columns.push_back({analyzed.output_names[i], *result.find(source)});
    }
    return named;
}

}  // namespace granary
