#include "engine/distributed/distributed_select.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>

#include "engine/aggregation/group_by_operator.h"
#include "engine/aggregation/partial_phase.h"
#include "engine/aggregation/result_builder.h"
#include "engine/aggregation/state_merge.h"
#include "engine/common/exception.h"
#include "engine/distributed/block_wire.h"
#include "engine/distributed/rank_exchange.h"
#include "engine/distributed/state_routing.h"
#include "engine/planner/select_stages.h"
#include "engine/sql/source_position.h"

namespace granary::distributed
{
namespace
{

/// Partial states leave the process: the plan is the one that exports and imports them
/// (no keyed count(DISTINCT) by value buckets, which keeps no per-key sets).
AggregationSettings exchangeSettings(AggregationSettings settings)
{
    settings.distinct.count_by_value_buckets = false;
    return settings;
}

std::unique_ptr<GroupByPlan> rowPlan(const SelectPlan& plan, const AggregationSettings& settings)
{
    return makeGroupByPlan(plan.scan->columns(), plan.analyzed.group_keys,
                           plan.analyzed.aggregate_functions, settings, false);
}

/// Exception(kIncorrectData) unless `message` has the state batches' columns.
void checkStateColumns(const Block& message, const std::vector<InputColumn>& columns, size_t source)
{
    bool same = message.columns.size() == columns.size();
    for (size_t c = 0; same && c < columns.size(); ++c)
    {
        same = message.columns[c].name == columns[c].name &&
               message.columns[c].column.type() == columns[c].type;
    }
    if (!same)
    {
        throw Exception(ErrorCode::kIncorrectData,
                        "partial states from rank " + std::to_string(source) +
                            " do not have this query's columns (another plan or build)");
    }
}

/// Merges each round's arriving state messages on the query's threads, one local per worker.
class StateReceiver
{
public:
    StateReceiver(GroupByOperator& op, const StateMerge& merge, QueryContext& context)
        : op_(op), merge_(merge), context_(context), locals_(context.threads())
    {
    }

    void mergeRound(std::vector<ArrivedMessage>& arrived)
    {
        std::atomic<size_t> next{0};
        const size_t workers = std::min(arrived.size(), locals_.size());
        context_.runWorkers(workers,
                            [&](size_t worker)
                            {
                                for (size_t m = next++; m < arrived.size(); m = next++)
                                {
                                    mergeMessage(worker, arrived[m]);
                                }
                            });
    }

    void combine()
    {
        for (std::unique_ptr<LocalSinkState>& local : locals_)
        {
            if (local)
            {
                op_.combine(std::move(local));
            }
        }
    }

private:
    void mergeMessage(size_t worker, ArrivedMessage& message)
    {
        const Block block = deserializeBlock(
            message.bytes, "the states from rank " + std::to_string(message.source));
        std::string().swap(message.bytes);
        checkStateColumns(block, merge_.plan().input_columns, message.source);
        std::vector<ColumnView> views;
        for (const Block::Entry& entry : block.columns)
        {
            views.push_back(entry.column.view());
        }
        merge_.checkStates(views, block.rows());
        if (!locals_[worker])
        {
            locals_[worker] = merge_.makeLocal();
        }
        TaskTimer timer(op_.partialRecorder());
        op_.sink(*locals_[worker], views, block.rows());
    }

    GroupByOperator& op_;
    const StateMerge& merge_;
    QueryContext& context_;
    std::vector<std::unique_ptr<LocalSinkState>> locals_;
};

/// This rank's groups: its shard's partial states go to the ranks of their buckets, and the
/// states of its own buckets, from every rank, are merged and finalized here.
Block aggregateAcrossRanks(const SelectPlan& plan, QueryContext& context,
                           const AggregationSettings& settings, RankExchange& exchange)
{
    MemoryTrackerScope memory_scope(&context.memory());
    std::vector<std::vector<std::string>> outgoing;
    exchange.agreeAfter(
        [&]
        {
            GroupByOperator partial(rowPlan(plan, settings), settings, context);
            sinkMorsels(*plan.scan, partial, settings, context);
            const std::vector<Block> states = partial.finish(nullptr, AggregateOutput::kStates);
            outgoing = routeStates(states, plan.analyzed.group_keys.size(), exchange.ranks());
        });
    // The merge chooses its path from the query's statistics: it starts from none of the
    // partial phase's (its partials, its merge path), which stay reported as that phase's.
    const QueryStats partial_stats = std::exchange(context.stats(), QueryStats{});
    context.stats().exchange = partial_stats.exchange;
    std::unique_ptr<GroupByPlan> merge_plan = rowPlan(plan, settings);
    // Declared before the operator: the locals of states it holds until finish use its plan.
    const StateMerge merge(*merge_plan, partialStateColumns(*merge_plan), settings);
    GroupByOperator op(std::move(merge_plan), settings, context);
    StateReceiver receiver(op, merge, context);
    // A failed merge stops merging, not the exchange: the other ranks' rounds still need
    // this one, and the failure is agreed on once they are done.
    std::exception_ptr failure;
    exchange.exchangeInRounds(std::move(outgoing),
                              [&](std::vector<ArrivedMessage>& arrived)
                              {
                                  if (failure)
                                  {
                                      return;
                                  }
                                  try
                                  {
                                      receiver.mergeRound(arrived);
                                  }
                                  catch (...)
                                  {
                                      failure = std::current_exception();
                                  }
                              });
    Block groups;
    exchange.agreeAfter(
        [&]
        {
            if (failure)
            {
                std::rethrow_exception(failure);
            }
            receiver.combine();
            // Without keys every state went to rank 0: the others' one group would be an
            // aggregate of nothing, not a share of the result.
            if (plan.analyzed.group_keys.empty() && exchange.rank() != 0)
            {
                groups = emptyResult(op.plan());
                return;
            }
            const std::optional<TopGroups> top = topGroupsOf(plan.analyzed);
            groups = concatenateResult(op.finish(top ? &*top : nullptr), op.plan(), context);
            // The rows this rank scanned and their partial phase, not the states it merged.
            context.stats().input_rows = partial_stats.input_rows;
            context.stats().phase(QueryPhase::kPartial) = partial_stats.phase(QueryPhase::kPartial);
        });
    return groups;
}

}  // namespace

SelectOutcome executeDistributedSelect(const sql::SelectStatement& select, const Table& table,
                                       QueryContext& context, const SelectSettings& settings,
                                       Transport& transport, const ScanObserver& observer)
{
    if (select.with_totals)
    {
        // Every rank gets the same statement, so every rank refuses it here, before any exchange.
        throw Exception(ErrorCode::kNotImplemented,
                        "WITH TOTALS at " + sql::describePosition(select.position) +
                            " is not supported by the distributed mode");
    }
    const auto start = std::chrono::steady_clock::now();
    ExchangeStats& stats = context.stats().exchange;
    RankExchange exchange(transport, stats);
    std::optional<SelectPlan> plan;
    exchange.agreeAfter(
        [&] { plan.emplace(planSelect(select, table, settings.analysis, observer, {})); });
    const AnalyzedSelect& analyzed = plan->analyzed;
    Block stage;
    if (analyzed.aggregates)
    {
        recordAggregation(analyzed, context.stats());
        stage =
            aggregateAcrossRanks(*plan, context, exchangeSettings(settings.aggregation), exchange);
        restoreNulls(plan->nulls, stage);
    }
    std::string own_rows;
    exchange.agreeAfter(
        [&]
        {
            if (!analyzed.aggregates)
            {
                stage = collectRows(*plan, context);
            }
            own_rows = serializeBlock(
                orderAndLimit(filterHaving(std::move(stage), analyzed), analyzed, false));
        });
    const std::vector<std::string> ranks_rows = exchange.gatherAtRoot(std::move(own_rows));
    SelectOutcome outcome;
    exchange.agreeAfter(
        [&]
        {
            if (exchange.rank() != 0)
            {
                return;
            }
            Block rows;
            for (size_t rank = 0; rank < ranks_rows.size(); ++rank)
            {
                appendBlock(rows, deserializeBlock(ranks_rows[rank],
                                                   "the rows from rank " + std::to_string(rank)));
            }
            outcome.block =
                projectOutputs(orderAndLimit(std::move(rows), analyzed, true), analyzed);
        });
    outcome.rows_read = plan->rowsRead();
    outcome.bytes_read = plan->bytesRead();
    outcome.granules_skipped = plan->scan->granulesSkipped();
    stats.local_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() -
        stats.exchange_seconds;
    exchange.gatherStatistics();
    return outcome;
}

}  // namespace granary::distributed
