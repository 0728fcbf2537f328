#pragma once

// The global phase of a GROUP BY with keys, for one key method: the merge of every combined
// local's table (serially, by conversion to two-level, or bucket by bucket), then the
// finalization of the merged groups into result fragments, one per bucket or key range.

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "engine/aggregation/finalize_groups.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/aggregation/local_sink_state.h"
#include "engine/aggregation/partial_aggregate.h"
#include "engine/exec/query_context.h"
#include "engine/observe/profile_events.h"

namespace granary
{

/// Partials' memory per partial below which all-single-level partials of heavy states
/// (distinct sets) still merge on one thread: states that fit the L2 cache merge faster there
/// than converted into 256 buckets (Q12 `MobilePhone, MobilePhoneModel, count(DISTINCT
/// UserID)` on 1M rows, 250 KB per partial: 5.3 ms at two threads, 3.5 at one).
inline constexpr size_t kHeavyStatesParallelMinBytes = size_t{1} << 20;

/// A local state over one key method's partial table.
template <typename Method>
class KeyedLocalState final : public LocalSinkState
{
public:
    KeyedLocalState(const GroupByPlan& plan, const AggregationSettings& settings)
        : layout_(plan.layout.get()), partial_(*plan.layout, plan.key_columns, settings)
    {
    }
    void sink(const std::vector<ColumnView>& columns, size_t rows) override
    {
        partial_.aggregate(columns, rows);
    }
    void markSoleWorker(std::function<void()> check_cancelled, size_t input_rows) override
    {
        partial_.setSoleWorker(std::move(check_cancelled), input_rows);
    }
    void expectRows(size_t share_rows, size_t input_rows) override
    {
        partial_.expectRows(share_rows, input_rows);
    }
    size_t rows() const override { return partial_.rows(); }
    size_t groups() const override { return partial_.size(); }
    size_t growths() const override { return partial_.resizes(); }
    PartialAggregate<Method>& partial() { return partial_; }
    /// The layout its rows are read with: its plan's (imported states have a plan of their own).
    const AggregateLayout* layout() const { return layout_; }

private:
    const AggregateLayout* layout_;
    PartialAggregate<Method> partial_;
};

/// Merges the partials of the combined locals and finalizes the result, recording the merge
/// path and per-phase statistics in the query's stats.
template <typename Method>
class KeyedMerge
{
public:
    using Partial = PartialAggregate<Method>;

    KeyedMerge(const GroupByPlan& plan, const AggregationSettings& settings, QueryContext& context,
               std::span<const std::unique_ptr<LocalSinkState>> locals)
        : plan_(plan), settings_(settings), context_(context), stats_(context.stats())
    {
        collectPartials(locals);
    }

    /// The result fragments (none when no row was sunk).
    std::vector<Block> run()
    {
        if (partials_.empty())
        {
            return {};
        }
        sources_ = std::span<Partial* const>(partials_.data() + 1, partials_.size() - 1);
        path_ = choosePath();
        if (path_ == MergePath::kSerial)
        {
            mergeSerially();
        }
        stats_.merge_path = path_;
        convertSingleLevel();
        if (path_ != MergePath::kNone && path_ != MergePath::kSerial)
        {
            mergeBuckets();
        }
        for (Partial* partial : partials_)
        {
            ProfileEvents::increment(ProfileEvent::HashTableResizes, partial->resizes());
        }
        return finalize();
    }

private:
    /// The partials with rows; those of this plan's own locals first, since the first is the
    /// merge's target, which aggregates every routed row with its layout (locals of imported
    /// states have another and never route rows).
    void collectPartials(std::span<const std::unique_ptr<LocalSinkState>> locals)
    {
        std::vector<KeyedLocalState<Method>*> ordered;
        for (const auto& local : locals)
        {
            ordered.push_back(static_cast<KeyedLocalState<Method>*>(local.get()));
        }
        std::stable_partition(ordered.begin(), ordered.end(),
                              [&](const KeyedLocalState<Method>* local)
                              { return local->layout() == plan_.layout.get(); });
        for (KeyedLocalState<Method>* local : ordered)
        {
            Partial& partial = local->partial();
            ProfileEvents::increment(ProfileEvent::ArenaBytes, partial.arena().bytesReserved());
            ProfileEvents::increment(ProfileEvent::TwoLevelConversions, partial.conversions());
            if (partial.rows() == 0)
            {
                continue;
            }
            partials_.push_back(&partial);
            (partial.isTwoLevel() ? stats_.two_level_partials : stats_.single_level_partials)++;
            stats_.partial_memory_bytes += partial.memoryBytes();
            stats_.partitioned_rows += partial.partitionedRows();
            stats_.partitioned_bytes += partial.partitionedBytes();
            stats_.partitioned_rows_aggregated_early += partial.partitionedRowsAggregated();
            stats_.partial_groups += partial.size();
            if constexpr (Partial::kCanRoute)
            {
                // A sole worker's groups routed in the partial phase (its table outgrew the
                // caches) wait for the bucket merge.
                stats_.routed_partials += partial.routed() ? 1 : 0;
            }
        }
        stats_.partials = partials_.size();
        // Partitioned rows are aggregated by the bucket tasks of the two-level paths (a
        // partial only partitions once it is two-level).
        partitioned_ = stats_.partitioned_rows > 0;
    }

    MergePath choosePath() const
    {
        const bool all_single = stats_.single_level_partials == partials_.size();
        const size_t total_groups = stats_.partial_groups;
        if (sources_.empty() && !partitioned_ && stats_.routed_partials == 0)
        {
            return MergePath::kNone;
        }
        // Not serial when the states are heavy (distinct sets) and each partial has groups
        // enough to spread over the buckets and table and arena bytes past the L2 cache (a
        // few groups of large sets merge each pair bucket-parallel on the serial path).
        if (all_single &&
            settings_.merge_cost.serialIsFaster(total_groups, partials_.size(),
                                                context_.workers()) &&
            !(plan_.layout->hasNonTrivialDestroy() &&
              total_groups / partials_.size() >= kMergeBuckets &&
              stats_.partial_memory_bytes / partials_.size() >= kHeavyStatesParallelMinBytes))
        {
            return MergePath::kSerial;
        }
        if constexpr (!Method::kHasTwoLevel)
        {
            return MergePath::kParallelFixedRanges;
        }
        if (all_single)
        {
            return MergePath::kParallelConvertAllSingle;
        }
        if (stats_.two_level_partials == partials_.size())
        {
            return MergePath::kParallelTwoLevel;
        }
        return MergePath::kParallelConvertMixed;
    }

    /// One source after another into the first partial, until that outgrows a single-level
    /// table (keys differ between partials, and the estimate assumed they repeat): then the
    /// sources left take the parallel path, the grown target with them.
    void mergeSerially()
    {
        Partial& target = *partials_.front();
        PhaseRecorder merge(stats_.phase(QueryPhase::kMerge));
        size_t merged = 0;
        context_.runTasks(merge, 1,
                          [&](size_t, TaskTimer& timer)
                          {
                              MergeContext merge_context{&context_, &merge, &timer};
                              for (; merged < sources_.size(); ++merged)
                              {
                                  if (Method::kHasTwoLevel &&
                                      target.size() > settings_.group_by_two_level_threshold)
                                  {
                                      break;
                                  }
                                  mergeGroups(target.single(), sources_[merged]->single(),
                                              *plan_.layout, merge_context);
                              }
                          });
        sources_ = sources_.subspan(merged);
        if (!sources_.empty())
        {
            path_ = MergePath::kSerialThenParallel;
        }
    }

    bool twoLevelResult() const
    {
        return path_ == MergePath::kParallelConvertAllSingle ||
               path_ == MergePath::kParallelConvertMixed || path_ == MergePath::kParallelTwoLevel ||
               path_ == MergePath::kSerialThenParallel ||
               (path_ == MergePath::kNone && partials_.front()->isTwoLevel());
    }

    /// Every single-level partial still to merge becomes two-level, each as its own task:
    /// never one after another on one thread (the seed's Q5 pathology). Fixed-width keys are
    /// routed to the merge's buckets instead: the bucket tasks insert every group into the
    /// target anyway.
    void convertSingleLevel()
    {
        if constexpr (Method::kHasTwoLevel)
        {
            if (path_ != MergePath::kParallelConvertAllSingle &&
                path_ != MergePath::kParallelConvertMixed &&
                path_ != MergePath::kSerialThenParallel)
            {
                return;
            }
            Partial& target = *partials_.front();
            std::vector<Partial*> to_convert;
            if (!target.isTwoLevel())
            {
                to_convert.push_back(&target);
            }
            for (Partial* source : sources_)
            {
                if (!source->isTwoLevel())
                {
                    to_convert.push_back(source);
                }
            }
            PhaseRecorder convert(stats_.phase(QueryPhase::kConvert));
            context_.runTasks(convert, to_convert.size(),
                              [&](size_t i, TaskTimer&)
                              {
                                  if constexpr (Partial::kCanRoute)
                                  {
                                      to_convert[i]->routeToTwoLevel();
                                  }
                                  else
                                  {
                                      to_convert[i]->convertToTwoLevel();
                                      ProfileEvents::increment(ProfileEvent::TwoLevelConversions);
                                  }
                              });
            if constexpr (Partial::kCanRoute)
            {
                stats_.routed_partials += to_convert.size();
            }
        }
    }

    /// 256 independent tasks; each merges its bucket (or key range) of every source, then
    /// aggregates every worker's partitioned rows of that bucket and, unless the result is
    /// written in place, finalizes the bucket while its groups are still in the task's cache
    /// (a top 10 over 1M groups read them again from memory: 26 of the query's 120 ms).
    void mergeBuckets()
    {
        Partial& target = *partials_.front();
        PhaseRecorder merge(stats_.phase(QueryPhase::kMerge));
        PhaseRecorder finalize(stats_.phase(QueryPhase::kFinalize), PhaseWall::kInsideAnotherPhase);
        if constexpr (Method::kHasTwoLevel)
        {
            finalize_in_merge_ = !finalizesInPlace();
            if (finalize_in_merge_)
            {
                fragments_.resize(kMergeBuckets);
            }
            if (partitioned_)
            {
                target.prepareForPartitionedRows();
            }
        }
        context_.runTasks(merge, kMergeBuckets,
                          [&](size_t bucket, TaskTimer& timer)
                          {
                              ProfileEvents::increment(ProfileEvent::MergeTasks);
                              MergeContext merge_context{&context_, &merge, &timer};
                              mergeBucket(target, bucket, merge_context);
                              if constexpr (Method::kHasTwoLevel)
                              {
                                  auto& merged = target.twoLevel().bucket(bucket);
                                  timer.facts().groups = merged.size();
                                  if constexpr (requires { merged.growCount(); })
                                  {
                                      timer.facts().growths = merged.growCount();
                                  }
                                  if (finalize_in_merge_)
                                  {
                                      // Timed as the finalize phase's work, not the merge's.
                                      timer.pause();
                                      {
                                          TaskTimer finalize_timer(finalize, bucket);
                                          fragments_[bucket] =
                                              finalizeGroups<Method>(merged, plan_);
                                      }
                                      timer.resume(0);
                                  }
                              }
                          });
    }

    void mergeBucket(Partial& target, size_t bucket, MergeContext& merge_context)
    {
        if constexpr (Partial::kCanRoute)
        {
            if (stats_.routed_partials > 0)
            {
                target.mergeRouted(bucket, partials_, merge_context);
            }
        }
        for (Partial* source : sources_)
        {
            if constexpr (Method::kHasTwoLevel)
            {
                if (source->routed())
                {
                    continue;
                }
                mergeGroups(target.twoLevel().bucket(bucket), source->twoLevel().bucket(bucket),
                            *plan_.layout, merge_context);
            }
            else
            {
                const size_t slots = Method::Single::kSlotCount;
                mergeGroups(target.single(),
                            source->single().slotRange(bucket * slots / kMergeBuckets,
                                                       (bucket + 1) * slots / kMergeBuckets),
                            *plan_.layout, merge_context);
            }
        }
        if constexpr (Method::kHasTwoLevel)
        {
            if (partitioned_)
            {
                target.aggregatePartitioned(bucket, partials_, [&] { context_.checkCancelled(); });
            }
        }
    }

    /// A two-level result of fixed-width columns is written in place into one block, sized
    /// once all buckets are merged.
    bool finalizesInPlace() const
    {
        return twoLevelResult() && allFixedWidth(emptyResult(plan_)) && !plan_.top &&
               !mayHoldNulls(plan_);
    }

    /// One fragment per bucket (or key range), built in parallel, or already by the bucket
    /// tasks that merged them; a two-level result of fixed-width columns is written in place
    /// into one block instead.
    std::vector<Block> finalize()
    {
        Partial& target = *partials_.front();
        const bool two_level = twoLevelResult();
        if (finalize_in_merge_)
        {
            return std::move(fragments_);
        }
        std::vector<Block> fragments;
        if constexpr (Method::kHasTwoLevel)
        {
            if (finalizesInPlace())
            {
                fragments.push_back(finalizeInPlace<Method>(target.twoLevel(), plan_,
                                                            emptyResult(plan_), context_));
                return fragments;
            }
        }
        PhaseRecorder finalize(stats_.phase(QueryPhase::kFinalize));
        if constexpr (Method::kHasTwoLevel)
        {
            if (two_level)
            {
                fragments.resize(kMergeBuckets);
                context_.runTasks(finalize, kMergeBuckets,
                                  [&](size_t bucket, TaskTimer&) {
                                      fragments[bucket] = finalizeGroups<Method>(
                                          target.twoLevel().bucket(bucket), plan_);
                                  });
            }
            else
            {
                fragments.resize(1);
                context_.runTasks(finalize, 1,
                                  [&](size_t, TaskTimer&) {
                                      fragments[0] = finalizeGroups<Method>(target.single(), plan_);
                                  });
            }
        }
        else
        {
            // The partials' groups bound the merged table's from above.
            const size_t slots = Method::Single::kSlotCount;
            const size_t ranges = std::clamp<size_t>(stats_.partial_groups / kFinalizeGroupsPerTask,
                                                     1, std::min(kMergeBuckets, slots));
            fragments.resize(ranges);
            context_.runTasks(finalize, ranges,
                              [&](size_t range, TaskTimer&)
                              {
                                  auto view = target.single().slotRange(
                                      range * slots / ranges, (range + 1) * slots / ranges);
                                  fragments[range] = finalizeGroups<Method>(view, plan_);
                              });
        }
        return fragments;
    }

    const GroupByPlan& plan_;
    const AggregationSettings& settings_;
    QueryContext& context_;
    QueryStats& stats_;
    std::vector<Partial*> partials_;
    std::span<Partial* const> sources_;
    bool partitioned_ = false;
    /// Each bucket task finalizes the bucket it merged, while its groups are in its cache.
    bool finalize_in_merge_ = false;
    std::vector<Block> fragments_;
    MergePath path_ = MergePath::kNone;
};

}  // namespace granary
