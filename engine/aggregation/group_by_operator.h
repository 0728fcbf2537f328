#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/aggregation/any_groups_filter.h"
#include "engine/aggregation/group_by_kernel.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/local_sink_state.h"
#include "engine/exec/query_context.h"
#include "engine/observe/resource_snapshot.h"

namespace granary
{

/// A GROUP BY fed by its host, in DuckDB's operator shape: each host thread makes a local
/// state and sinks batches into it, hands it back (combine: no merge work on its thread),
/// and finish() runs the parallel merge and finalize on the query's threads. The global state
/// is the list of combined locals; the merge plan is the kernel's (KeyedMerge).
class GroupByOperator
{
public:
    /// `partial_recorder`: the partial phase's recorder, shared by the operators of one query
    /// that sink the same batches (each a share of their rows); by default the operator's own.
    GroupByOperator(std::unique_ptr<GroupByPlan> plan, const AggregationSettings& settings,
                    QueryContext& context, std::shared_ptr<PhaseRecorder> partial_recorder = {});
    ~GroupByOperator();
    GroupByOperator(const GroupByOperator&) = delete;
    GroupByOperator& operator=(const GroupByOperator&) = delete;

    const GroupByPlan& plan() const { return *plan_; }
    QueryContext& context() { return context_; }

    /// Aggregates only the first `groups` (1 to AnyGroupsFilter::kMaxGroups) distinct keys the
    /// locals meet: any groups answer a LIMIT without ORDER BY. Before the first makeLocal.
    void admitAnyGroups(size_t groups);
    /// A new local state for one host thread. Thread-safe.
    std::unique_ptr<LocalSinkState> makeLocal() const;
    /// Aggregates `rows` rows of `columns` (the plan's input columns, in order) into `local`
    /// on the calling thread, after checking cancellation. The caller has checked the batch's
    /// shape, times it (partialRecorder()) and charges its memory to the query.
    void sink(LocalSinkState& local, const std::vector<ColumnView>& columns, size_t rows);
    /// The partial phase's recorder: one task per sunk batch.
    PhaseRecorder& partialRecorder() { return *partial_recorder_; }
    /// Hands a local over to the global state. Thread-safe; no merge work.
    void combine(std::unique_ptr<LocalSinkState> local);
    /// Merges every combined local and finalizes the result in fragments of the result schema
    /// (keys, then aggregates; no fragment when no row was sunk), keeping only what `top`
    /// asks for, with each aggregate's result, serialized state or both (`output`). Once; the
    /// locals are freed.
    std::vector<Block> finish(const TopGroups* top = nullptr,
                              AggregateOutput output = AggregateOutput::kResults);

private:
    std::unique_ptr<GroupByPlan> plan_;
    AggregationSettings settings_;
    QueryContext& context_;
    std::unique_ptr<GroupByKernel> kernel_;
    std::unique_ptr<AnyGroupsFilter> any_groups_;
    ResourceSnapshot resources_before_;
    std::shared_ptr<PhaseRecorder> partial_recorder_;
    std::atomic<size_t> input_rows_{0};
    std::mutex locals_mutex_;
    std::vector<std::unique_ptr<LocalSinkState>> locals_;
};

}  // namespace granary
