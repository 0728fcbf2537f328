#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "engine/aggregation/aggregation_input.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/exec/phase_recorder.h"
#include "engine/exec/query_context.h"
#include "engine/observe/profile_events.h"

namespace granary
{

/// Runs the partial phase: `workers` tasks, each with a partial of its own, take morsels from
/// a shared cursor. Each morsel is timed as a task, so the phase's span is the longest morsel.
template <typename Partial, typename MakePartial>
std::vector<std::unique_ptr<Partial>> runPartialPhase(const AggregationInput& input,
                                                      const AggregationSettings& settings,
                                                      QueryContext& context, size_t min_workers,
                                                      MakePartial&& make_partial)
{
    const size_t morsels = input.morsels();
    const size_t workers = std::max(min_workers, std::min(context.workers(), morsels));
    std::vector<std::unique_ptr<Partial>> partials(workers);
    std::atomic<size_t> next_morsel{0};
    std::atomic<size_t> input_rows{0};
    PhaseRecorder recorder(context.stats().phase(QueryPhase::kPartial));
    // Dynamic: whoever is free takes the next morsel. Deterministic: worker w takes morsels
    // w, w + workers, ... (reproducible partial contents for tests and studies), also when
    // there are more workers than threads, where the first workers would otherwise take all.
    const bool dynamic = !settings.deterministic_morsels && workers <= context.threads();
    context.runWorkers(
        workers,
        [&](size_t worker)
        {
            partials[worker] = make_partial();
            if constexpr (requires { partials[worker]->setSoleWorker(std::function<void()>()); })
            {
                if (workers == 1)
                {
                    partials[worker]->setSoleWorker([&context] { context.checkCancelled(); });
                }
            }
            const std::unique_ptr<MorselBuffers> buffers = input.makeBuffers();
            std::vector<ColumnView> columns;
            auto next = [&](size_t previous)
            { return dynamic ? next_morsel++ : previous + workers; };
            for (size_t morsel = dynamic ? next_morsel++ : worker; morsel < morsels;
                 morsel = next(morsel))
            {
                context.checkCancelled();
                TaskTimer timer(recorder);
                const size_t rows = input.produce(morsel, buffers.get(), columns);
                partials[worker]->aggregate(columns, rows);
                input_rows.fetch_add(rows, std::memory_order_relaxed);
                ProfileEvents::increment(ProfileEvent::RowsRead, rows);
            }
        });
    context.stats().input_rows += input_rows.load();
    return partials;
}

}  // namespace granary
