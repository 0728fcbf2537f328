#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "engine/aggregation/aggregation_input.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/group_by_operator.h"
#include "engine/exec/phase_recorder.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// The workers sinkMorsels runs `input` on: one per morsel at most.
inline size_t partialWorkers(const AggregationInput& input, const QueryContext& context)
{
    return std::min(context.workers(), input.morsels());
}

/// Runs the partial phase of a one-shot aggregation: workers on the query's threads, each
/// with a local state of `op`, take morsels from a shared cursor, sink them and combine their
/// locals. Each morsel (its production, a scan's filters included, and its aggregation) is
/// timed as a task, so the phase's span is the longest morsel.
inline void sinkMorsels(const AggregationInput& input, GroupByOperator& op,
                        const AggregationSettings& settings, QueryContext& context)
{
    const size_t morsels = input.morsels();
    const size_t workers = partialWorkers(input, context);
    std::atomic<size_t> next_morsel{0};
    // Dynamic: whoever is free takes the next morsel. Deterministic: worker w takes morsels
    // w, w + workers, ... (reproducible partial contents for tests and studies), also when
    // there are more workers than threads, where the first workers would otherwise take all.
    const bool dynamic = !settings.deterministic_morsels && workers <= context.threads();
    context.runWorkers(
        workers,
        [&](size_t worker)
        {
            std::unique_ptr<LocalSinkState> local = op.makeLocal();
            if (workers == 1)
            {
                local->markSoleWorker([&context] { context.checkCancelled(); }, input.rows());
            }
            size_t produced_rows = 0;
            size_t produced_morsels = 0;
            const std::unique_ptr<MorselBuffers> buffers = input.makeBuffers();
            std::vector<ColumnView> columns;
            auto next = [&](size_t previous)
            { return dynamic ? next_morsel++ : previous + workers; };
            for (size_t morsel = dynamic ? next_morsel++ : worker; morsel < morsels;
                 morsel = next(morsel))
            {
                TaskTimer timer(op.partialRecorder(), morsel);
                const size_t growths = local->growths();
                const size_t rows = input.produce(morsel, buffers.get(), columns);
                if (workers > 1)
                {
                    // The rows the scan passes, in all and per worker: its
                    // filter's rate so far, over every morsel.
                    produced_rows += rows;
                    ++produced_morsels;
                    const size_t input_rows = produced_rows * morsels / produced_morsels;
                    local->expectRows(input_rows / workers, input_rows);
                }
                op.sink(*local, columns, rows);
                timer.facts() = {rows, local->groups(), local->growths() - growths};
            }
            op.combine(std::move(local));
        });
}

}  // namespace granary
